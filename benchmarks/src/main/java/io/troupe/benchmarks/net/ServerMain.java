package io.troupe.benchmarks.net;

import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

/**
 * The life of a benchmark server process: parse the arguments, start, print
 * {@code <name> ready on host:port} on standard output (the suite waits for it), serve until SIGTERM
 * or SIGINT, close, exit 0. Exits 1 when it cannot start.
 *
 * <p><b>Threading:</b> runs on the main thread; the shutdown hook closes the server and lets main
 * return.
 */
final class ServerMain {

    private ServerMain() {
    }

    /**
     * @param echo creates the echo service for the parsed arguments
     */
    static void run(String name, String[] args, Function<ServerArguments, EchoService> echo,
            boolean flushFromOtherThreads) {
        NettyV1Server server;
        ServerArguments arguments;
        try {
            arguments = ServerArguments.parse(args);
            server = NettyV1Server.start(arguments, echo.apply(arguments), flushFromOtherThreads);
        } catch (Exception e) {
            System.err.println(name + ": cannot start: " + e);
            System.exit(1);
            return;
        }
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            closed.countDown();
        }, name + "-shutdown"));
        System.out.println(name + " ready on " + arguments.host() + ":" + arguments.port() + " ("
                + server.transport() + ")");
        System.out.flush();
        try {
            closed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
