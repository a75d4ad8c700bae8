package io.troupe.server.session;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.Message;

/**
 * The actor that stands for a session: handlers find its reference in {@link Message#client()} and
 * tell it {@link Message}s to push them to the client, each as a SEND frame with corrId 0. The
 * session spawns it as a top-level actor named {@code session-<id>} with the first message it routes (a
 * session that never sent one holds no actor) and stops it when the connection closes; pushes after that
 * are dead letters.
 *
 * <p><b>Threading:</b> runs on runtime workers, one message at a time; the push target writes to the
 * connection, which accepts writes from any thread.
 */
final class SessionActor implements Actor {

    private static final Logger LOG = LoggerFactory.getLogger(SessionActor.class);

    /** Its session, which writes the pushes (no lambda in between: one object less per session). */
    private final Session session;

    SessionActor(Session session) {
        this.session = session;
    }

    @Override
    public void receive(ActorContext ctx, Object message) {
        if (message instanceof Message push) {
            session.push(push);
        } else {
            LOG.debug("{} ignores a {}: only Messages can be pushed to a client", ctx.self(),
                    message == null ? "null" : message.getClass().getName());
        }
    }
}
