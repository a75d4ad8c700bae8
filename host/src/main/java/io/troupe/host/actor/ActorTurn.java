package io.troupe.host.actor;

import io.troupe.api.Message;

/**
 * What an actor turn is doing, as a monitor sees it from another thread.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param id      the actor id
 * @param name    the actor's display name
 * @param tenant  its tenant, empty for system actors
 * @param origin  where its code comes from, for example {@code handler:echo}
 * @param plugin  who provides that code, for example {@code io.troupe.sample.echo 1.0.0}; empty when not known
 * @param message the message being received: {@code Message 'name'} for api messages, the class name
 *                otherwise, or a note that the turn runs lifecycle work
 */
public record ActorTurn(long id, String name, String tenant, String origin, String plugin, String message) {

    /**
     * Names the message a turn is receiving, read racily from another thread: only its class and, for
     * an api {@link Message}, its (final) name, never its {@code toString()}, which is user code and
     * may not be thread-safe.
     */
    static String describe(Object message) {
        if (message == null) {
            return "no message (lifecycle or system work)";
        }
        if (message instanceof Message named) {
            return "Message '" + named.name() + "'";
        }
        return message.getClass().getName();
    }

    @Override
    public String toString() {
        return name + "#" + id + " (" + origin + (plugin.isEmpty() ? "" : ", plugin " + plugin)
                + (tenant.isEmpty() ? "" : ", tenant " + tenant) + ") processing " + message;
    }
}
