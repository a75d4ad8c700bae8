package io.troupe.benchmarks.net;

/**
 * What a user would build instead of Troupe: the same Netty front as {@link PlainNettyServer}, each
 * {@code echo} request handed to the tenant's Pekko classic actor, which writes the reply back
 * ({@link PekkoEcho}).
 *
 * <pre>java -cp benchmarks.jar io.troupe.benchmarks.net.NettyPekkoServer --port N --tenant demo --token T</pre>
 *
 * <p><b>Threading:</b> see {@link ServerMain}.
 */
public final class NettyPekkoServer {

    private NettyPekkoServer() {
    }

    public static void main(String[] args) {
        ServerMain.run("NettyPekkoServer", args, arguments -> new PekkoEcho(arguments.tenant()), true);
    }
}
