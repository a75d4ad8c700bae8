package io.troupe.client;

import java.util.Objects;

/**
 * One server a client may connect to: a host name or address and a port, written {@code host:port}
 * ({@code [v6-address]:port} for an IPv6 literal). Seeds given to {@link TroupeClient.Builder#servers} and
 * the owners a redirect names are both read by {@link #parse}.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
record ServerAddress(String host, int port) {

    ServerAddress {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host is blank");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be between 1 and 65535: " + port);
        }
    }

    /**
     * Reads {@code host}, {@code host:port}, {@code [v6]} or {@code [v6]:port}; an address with several colons
     * and no brackets is an IPv6 literal without a port.
     *
     * @param defaultPort the port of an address that names none
     * @throws IllegalArgumentException naming the address and what is wrong with it
     */
    static ServerAddress parse(String text, int defaultPort) {
        Objects.requireNonNull(text, "address");
        String address = text.strip();
        String host = address;
        String port = null;
        if (address.startsWith("[")) {
            int close = address.indexOf(']');
            if (close < 0) {
                throw bad(text, "a '[' without its ']'");
            }
            host = address.substring(1, close);
            String rest = address.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw bad(text, "'" + rest + "' after the ']' instead of :PORT");
                }
                port = rest.substring(1);
            }
        } else {
            int colon = address.indexOf(':');
            if (colon >= 0 && colon == address.lastIndexOf(':')) {
                host = address.substring(0, colon);
                port = address.substring(colon + 1);
            }
        }
        if (host.isBlank()) {
            throw bad(text, "no host");
        }
        return new ServerAddress(host, port == null ? defaultPort : portNumber(text, port));
    }

    private static int portNumber(String text, String port) {
        try {
            int number = Integer.parseInt(port);
            if (number >= 1 && number <= 65535) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw bad(text, "the port must be a whole number from 1 to 65535: '" + port + "'");
    }

    private static IllegalArgumentException bad(String text, String reason) {
        return new IllegalArgumentException("server address '" + text + "' is not HOST[:PORT]: " + reason);
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
