package io.troupe.benchmarks.net;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The command line of the benchmark servers ({@link PlainNettyServer}, {@link NettyPekkoServer}):
 * {@code --port N --tenant ID --token SECRET [--host H] [--threads N]}.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param host    the address to listen on (default 127.0.0.1)
 * @param port    the port to listen on
 * @param tenant  the one tenant accepted in HELLO
 * @param token   its token
 * @param threads event loop threads (default: one per core)
 * @param tlsKeystore a PKCS#12 keystore to speak TLS 1.3 with (the JDK provider), or null for plaintext
 * @param tlsPassword its password
 */
record ServerArguments(String host, int port, String tenant, String token, int threads, Path tlsKeystore,
        String tlsPassword) {

    static ServerArguments parse(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 == args.length) {
                throw new IllegalArgumentException("usage: --port N --tenant ID --token SECRET [--host H] "
                        + "[--threads N] [--tls-keystore P12 --tls-password PW]; got '" + args[i] + "'");
            }
            options.put(args[i].substring(2), args[++i]);
        }
        String port = options.get("port");
        String tenant = options.get("tenant");
        String token = options.get("token");
        if (port == null || tenant == null || token == null) {
            throw new IllegalArgumentException("--port, --tenant and --token are required");
        }
        int threads = Integer.parseInt(options.getOrDefault("threads",
                Integer.toString(Runtime.getRuntime().availableProcessors())));
        String keystore = options.get("tls-keystore");
        return new ServerArguments(options.getOrDefault("host", "127.0.0.1"), Integer.parseInt(port), tenant, token,
                threads, keystore == null ? null : Path.of(keystore), options.getOrDefault("tls-password", ""));
    }
}
