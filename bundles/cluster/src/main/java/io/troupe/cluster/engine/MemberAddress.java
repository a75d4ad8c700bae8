package io.troupe.cluster.engine;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A cluster member's address as configured, {@code host:port}: an entry of {@code members}, or
 * {@code publicAddress}. An IPv6 literal is written in brackets ({@code [::1]:5701}), or bare when it
 * carries no port.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param host a host name or IP literal (IPv6 without brackets)
 * @param port 1..65535
 */
public record MemberAddress(String host, int port) {

    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._%:-]{1,253}");

    public MemberAddress {
        Objects.requireNonNull(host, "host");
        if (!HOST.matcher(host).matches()) {
            throw new IllegalArgumentException("not a host name or IP address: '" + host + "'");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is outside 1..65535");
        }
    }

    /**
     * {@code text} as {@code host[:port]}, {@code defaultPort} when it has none.
     *
     * @throws IllegalArgumentException saying why {@code text} is no address
     */
    public static MemberAddress parse(String text, int defaultPort) {
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("an empty address");
        }
        String host;
        String port = null;
        if (trimmed.startsWith("[")) {
            int close = trimmed.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("'" + trimmed + "' has no closing ']'");
            }
            host = trimmed.substring(1, close);
            String rest = trimmed.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw new IllegalArgumentException("'" + trimmed + "': expected ':port' after ']'");
                }
                port = rest.substring(1);
            }
        } else {
            int colon = trimmed.indexOf(':');
            if (colon >= 0 && colon == trimmed.lastIndexOf(':')) {
                host = trimmed.substring(0, colon);
                port = trimmed.substring(colon + 1);
            } else {
                host = trimmed;
            }
        }
        return new MemberAddress(host, port == null ? defaultPort : portNumber(trimmed, port));
    }

    private static int portNumber(String text, String port) {
        try {
            return Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "': port '" + port + "' is not a number");
        }
    }

    /** {@code host:port}, an IPv6 host in brackets. */
    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
