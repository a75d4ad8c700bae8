package io.troupe.benchmarks.net;

/**
 * The ceiling of the network benchmark: protocol-v1 echo answered directly in Netty's event loop,
 * no actors ({@link InlineEcho} behind {@link NettyV1Server}).
 *
 * <pre>java -cp benchmarks.jar io.troupe.benchmarks.net.PlainNettyServer --port N --tenant demo --token T</pre>
 *
 * <p><b>Threading:</b> see {@link ServerMain}.
 */
public final class PlainNettyServer {

    private PlainNettyServer() {
    }

    public static void main(String[] args) {
        ServerMain.run("PlainNettyServer", args, arguments -> new InlineEcho(), false);
    }
}
