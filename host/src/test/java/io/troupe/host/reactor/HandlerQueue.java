package io.troupe.host.reactor;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.troupe.api.net.Connection;
import io.troupe.api.net.ConnectionHandler;
import io.troupe.api.net.ConnectionHandlerFactory;

/**
 * A handler factory that hands every handler it creates to the test, in creation order: accept order
 * on one loop, but in no particular order across loops, so tests connect one client at a time.
 */
final class HandlerQueue<H extends ConnectionHandler> implements ConnectionHandlerFactory {

    private final Supplier<H> handlers;
    private final LinkedBlockingQueue<H> created = new LinkedBlockingQueue<>();

    HandlerQueue(Supplier<H> handlers) {
        this.handlers = handlers;
    }

    @Override
    public ConnectionHandler create(Connection connection) {
        H handler = handlers.get();
        created.add(handler);
        return handler;
    }

    /** The next handler created, waiting up to five seconds for it. */
    H next() throws InterruptedException {
        H handler = created.poll(5, TimeUnit.SECONDS);
        assertNotNull(handler, "no connection was accepted within 5 s");
        return handler;
    }
}
