package io.troupe.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.Optional;

/**
 * The redirect of protocol 1.4: in a cluster, a tenant is served by one node at a time, and a client that
 * reaches another node is sent to the owner's address for clients ({@code host:port}, or empty while the
 * owner is not known yet).
 *
 * <ul>
 * <li>Before WELCOME: ERROR {@code tenant.moved} ({@link ErrorCode#TENANT_MOVED}) with the address as its
 * content; the connection is closed.</li>
 * <li>In a session, when its tenant moves away: BYE whose content is {@code tenant.moved} followed by one
 * space and the address (UTF-8); the connection is closed. Before it, the server answered every request
 * it had read; requests without an answer were not read and may be sent again to the new owner.</li>
 * </ul>
 *
 * Older clients see an error or a BYE reason that names {@code tenant.moved}, never a silent hang.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class Redirect {

    /** What the content of a redirecting BYE starts with, before the address. */
    public static final String BYE_PREFIX = ErrorCode.TENANT_MOVED.code() + " ";

    private Redirect() {
    }

    /** The HELLO's answer: served at {@code ownerAddress} ({@code ""} when not known yet). */
    public static Frame error(long corrId, String ownerAddress) {
        return Frame.error(corrId, ErrorCode.TENANT_MOVED, ownerAddress);
    }

    /** The BYE of a session whose tenant moved to {@code ownerAddress} ({@code ""} when not known yet). */
    public static Frame bye(String ownerAddress) {
        return new Frame(FrameType.BYE, 0L, "", (BYE_PREFIX + ownerAddress).getBytes(UTF_8));
    }

    /**
     * The address a frame redirects to: for ERROR {@code tenant.moved} or a BYE whose content starts with
     * {@link #BYE_PREFIX}, the address ({@code ""} when the owner is not known); empty for any other frame.
     */
    public static Optional<String> target(Frame frame) {
        if (frame.type() == FrameType.ERROR && ErrorCode.TENANT_MOVED.code().equals(frame.name())) {
            return Optional.of(new String(frame.content(), UTF_8).strip());
        }
        if (frame.type() == FrameType.BYE) {
            String reason = new String(frame.content(), UTF_8);
            if (reason.startsWith(BYE_PREFIX) || reason.equals(BYE_PREFIX.strip())) {
                return Optional.of(reason.substring(Math.min(reason.length(), BYE_PREFIX.length())).strip());
            }
        }
        return Optional.empty();
    }
}
