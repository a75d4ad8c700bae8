package io.troupe.compiletest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.troupe.api.net.Cancellable;
import io.troupe.api.net.Connection;
import io.troupe.api.net.ConnectionHandler;
import io.troupe.api.net.ConnectionHandlerFactory;
import io.troupe.api.net.ConnectionOptions;
import io.troupe.api.net.Listener;
import io.troupe.api.net.Reactor;

/**
 * Compile-only test of the exported package {@code io.troupe.api.net} (1.0.0): the consumer types
 * ({@link ConnectionHandler}, {@link ConnectionHandlerFactory}) are implemented, as lambdas too; the
 * provider types ({@link Reactor}, {@link Listener}, {@link Connection}, {@link Cancellable}) are called;
 * {@link ConnectionOptions} is built and read, all from outside the package, as the server bundle uses
 * them.
 *
 * <p>Its value is that it compiles (see {@link ApiCompileTest} for why it exists beside bnd's baseline
 * check); the single test only lets the runner count the class. When the package gains a public
 * signature, add a use of it here.
 *
 * <p><b>Threading:</b> nothing here runs.
 */
class ApiNetCompileTest {

    @Test
    void compilesAgainstEveryPublicSignatureOfTheReactorApi() {
        // Nothing to run: the class compiled. This names the package it covers, for the report.
        assertEquals("io.troupe.api.net", Reactor.class.getPackageName());
    }

    /** A consumer type with one abstract method stays a functional interface. */
    static final ConnectionHandler LAMBDA_HANDLER = (connection, input) -> connection.write(input);

    static final ConnectionHandlerFactory LAMBDA_FACTORY = connection -> LAMBDA_HANDLER;

    /** Overrides every callback of {@link ConnectionHandler} with its exact signature. */
    static final class EveryCallback implements ConnectionHandler {

        @Override
        public void onOpen(Connection connection) {
            ConnectionHandler.super.onOpen(connection);
        }

        @Override
        public void onRead(Connection connection, ByteBuffer input) {
            useConnection(connection, input);
        }

        @Override
        public void onInputShutdown(Connection connection) {
            ConnectionHandler.super.onInputShutdown(connection);
        }

        @Override
        public void onWritable(Connection connection) {
            ConnectionHandler.super.onWritable(connection);
        }

        @Override
        public void onClosed(Connection connection, Throwable cause) {
            ConnectionHandler.super.onClosed(connection, cause);
        }
    }

    static void useReactor(Reactor reactor) throws IOException {
        ConnectionOptions defaults = ConnectionOptions.DEFAULTS;
        ConnectionOptions options = new ConnectionOptions(64 * 1024, 16 * 1024, 16L << 20, 1 << 20);
        use(options.highWaterMark(), options.lowWaterMark(), options.maxPendingOutput(), options.maxInputBuffer());
        int loops = reactor.ioLoops();
        Listener listener = reactor.listen(new InetSocketAddress("127.0.0.1", 0), LAMBDA_FACTORY, defaults);
        InetSocketAddress address = listener.address();
        listener.close();
        try (Listener other = reactor.listen(address, connection -> new EveryCallback(), options)) {
            use(loops, other);
        }
    }

    static void useConnection(Connection connection, ByteBuffer input) {
        long id = connection.id();
        InetSocketAddress remote = connection.remoteAddress();
        InetSocketAddress local = connection.localAddress();
        boolean inLoop = connection.inLoop();
        connection.execute(() -> { });
        Cancellable timer = connection.schedule(() -> { }, Duration.ofSeconds(1));
        boolean cancelled = timer.cancel();
        connection.write(input);
        long pending = connection.pendingOutputBytes();
        boolean writable = connection.isWritable();
        connection.suspendReading();
        connection.resumeReading();
        connection.shutdownOutput();
        connection.close();
        connection.abort();
        boolean open = connection.isOpen();
        use(id, remote, local, inLoop, cancelled, pending, writable, open);
    }

    private static void use(Object... values) {
        // a sink, so that every value above is used
    }
}
