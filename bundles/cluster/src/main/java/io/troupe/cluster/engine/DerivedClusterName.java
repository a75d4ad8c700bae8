package io.troupe.cluster.engine;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The Hazelcast cluster name a node actually uses: {@code clusterName + "-" +} the first 32 hex digits of
 * {@code HMAC-SHA256(key = secret, message = clusterName)} (both UTF-8). Hazelcast open source has no
 * member authentication: a member joins only a cluster of its own name, so a node without the secret
 * cannot join. It keeps out misconfigured nodes and whoever reaches the cluster port without reading its
 * traffic; the name travels in clear, so anyone who can sniff the cluster network can replay it.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class DerivedClusterName {

    private static final int HEX_DIGITS = 32;

    private DerivedClusterName() {
    }

    /** The engine's cluster name for {@code clusterName} and {@code secret}. */
    public static String of(String clusterName, String secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] digest = mac.doFinal(clusterName.getBytes(StandardCharsets.UTF_8));
            return clusterName + "-" + HexFormat.of().formatHex(digest).substring(0, HEX_DIGITS);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }
}
