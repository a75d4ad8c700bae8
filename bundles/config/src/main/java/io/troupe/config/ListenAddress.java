package io.troupe.config;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * What a configured listening host name means for who can connect: the rule behind the message server's and
 * the HTTP endpoint's refusal of plaintext on a non-loopback address ({@code allowPlaintext}).
 *
 * <p>A name is resolved when asked (a name may map to several addresses: all of them must be loopback ones);
 * a name that does not resolve is neither loopback nor reachable, and the listener reports it on its own.
 *
 * <p><b>Threading:</b> stateless; any thread. Resolving a name may block on the system's resolver: call it
 * where a configuration is applied, never on an IO loop.
 */
public final class ListenAddress {

    private ListenAddress() {
    }

    /** Whether {@code host} names loopback addresses only; a name that does not resolve is not one. */
    public static boolean isLoopback(String host) {
        try {
            InetAddress[] addresses = InetAddress.getAllByName(host);
            for (InetAddress address : addresses) {
                if (!address.isLoopbackAddress()) {
                    return false;
                }
            }
            return addresses.length > 0;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** Whether {@code host} resolves to at least one address. */
    public static boolean resolves(String host) {
        try {
            InetAddress.getAllByName(host);
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
