package io.troupe.client;

import java.util.ArrayList;
import java.util.List;

import io.troupe.protocol.ErrorCode;

/**
 * The redirects a client followed since its last WELCOME, and their bound: nodes that disagree on who owns
 * a tenant (or a cluster that cannot settle) would otherwise send it round for ever. The redirect after
 * the {@code limit}-th in a row is not followed: it ends in a {@link TroupeClientException} with code
 * {@code tenant.moved} whose detail names every address on the way.
 *
 * <p><b>Threading:</b> not thread-safe; confined to the client's loop thread.
 */
final class RedirectTrail {

    private final String tenant;
    private final int limit;
    /** The addresses that redirected, in order, then where the last one sent the client. */
    private final List<String> hops = new ArrayList<>();
    private int count;

    RedirectTrail(String tenant, int limit) {
        this.tenant = tenant;
        this.limit = limit;
    }

    /**
     * Notes that {@code from} redirected to {@code to} ({@code ""}: owner not known yet).
     *
     * @return null when the redirect may be followed; the failure to report when it is one too many
     */
    TroupeClientException follow(String from, String to) {
        count++;
        hops.add(from);
        if (count <= limit) {
            return null;
        }
        List<String> route = new ArrayList<>(hops);
        route.add(to.isEmpty() ? "(owner not known yet)" : to);
        return new TroupeClientException(ErrorCode.TENANT_MOVED.code(), "tenant '" + tenant + "' was redirected "
                + count + " times in a row without a WELCOME, more than the " + limit + " allowed (maxRedirects): "
                + String.join(" -> ", route) + "; its nodes may disagree on its owner, or it is still moving");
    }

    /** How many redirects were followed since the last reset. */
    int count() {
        return count;
    }

    /** A WELCOME came, or the client gave up: the next redirect is the first again. */
    void reset() {
        count = 0;
        hops.clear();
    }
}
