package io.troupe.client;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Receives the messages the server pushes to this session: SEND frames with corrId 0.
 *
 * <p><b>Threading:</b> called on the client's loop thread, one push at a time and in the order the
 * server sent them. It must return quickly and never block (hand work to an executor instead):
 * while it runs, no other frame of any client sharing that thread is read. An exception it throws is
 * caught and logged through {@link System.Logger} (the first one at WARNING, later ones at DEBUG),
 * and the connection goes on.
 */
@ConsumerType
@FunctionalInterface
public interface PushListener {

    /**
     * A push arrived.
     *
     * @param name    the frame's name: what the server's handler chose as the topic
     * @param content the payload; the array belongs to the listener
     */
    void onPush(String name, byte[] content);
}
