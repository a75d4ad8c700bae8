package io.troupe.api;

/**
 * The message a watcher receives when an actor it {@linkplain ActorContext#watch watches} has stopped:
 * exactly once per watch, also when the actor had already stopped when the watch began, and never
 * after {@link ActorContext#unwatch} returned. It is queued behind every message the stopped actor
 * sent to the watcher before it stopped, so nothing the actor said arrives after its death notice.
 *
 * <pre>
 * public void receive(ActorContext ctx, Object message) {
 *     if (message instanceof Terminated gone) {
 *         workers.remove(gone.actor());
 *     }
 * }
 * </pre>
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param actor the actor that stopped
 * @since 1.4
 */
public record Terminated(ActorRef actor) {
}
