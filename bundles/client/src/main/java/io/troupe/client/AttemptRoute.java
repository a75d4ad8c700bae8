package io.troupe.client;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Where and when a client's next connection attempt goes: the address ({@link ServerAddresses}), the
 * round it belongs to, the backoff delay before a new round ({@link Backoff}) and the redirects followed
 * since the last WELCOME ({@link RedirectTrail}).
 *
 * <pre>
 *   begin() ─► attempt ─► welcomed()                    every count starts over
 *                 │ failed to connect: nextInRound()    true: the next address at once
 *                 │                                     false: the round failed (its failures attached)
 *                 │ redirected: redirect(target)        the owner at once, or the next address after a delay,
 *                 │                                     or the bound reached
 *   newRoundDelayNanos(): the backoff before the next round
 * </pre>
 *
 * <p><b>Threading:</b> not thread-safe; confined to the client's loop thread.
 */
final class AttemptRoute {

    /**
     * What a redirect leads to.
     *
     * @param tooMany    the failure to report when the redirect is one too many; then nothing else counts
     * @param to         the address of the next attempt
     * @param delayNanos the wait before it: 0 when the owner was named
     */
    record Redirection(TroupeClientException tooMany, ServerAddress to, long delayNanos) {
    }

    private static final System.Logger LOG = System.getLogger(AttemptRoute.class.getName());

    private final ServerAddresses addresses;
    private final RedirectTrail trail;
    private final Backoff backoff;
    /** The failed attempts of the current round, reported with its last. */
    private final List<Throwable> roundFailures = new ArrayList<>();
    /** The address of the current (or last) attempt. */
    private ServerAddress attempted;
    /** Attempts left in the current round before it has failed. */
    private int roundLeft;
    /**
     * The addresses that could not be reached since the last WELCOME: a redirect naming one of them (a
     * cluster node that died and that the others still name as the owner for a moment) is taken as naming
     * no owner, so that the client backs off rather than spending its redirects on it at once.
     */
    private final Set<ServerAddress> unreachable = new HashSet<>();

    AttemptRoute(ClientSettings settings) {
        this.addresses = new ServerAddresses(settings.servers());
        this.trail = new RedirectTrail(settings.tenant(), settings.maxRedirects());
        this.backoff = new Backoff(settings.backoffInitial().toNanos(), settings.backoffCap().toNanos(),
                settings.backoffJitter());
        this.attempted = addresses.current();
    }

    /** The address of the current attempt, or of the last one (a session's, once welcomed). */
    ServerAddress attempted() {
        return attempted;
    }

    /** The next attempts try every address once, from the current one. */
    void startRound() {
        roundLeft = addresses.roundSize();
        roundFailures.clear();
    }

    /** An attempt starts: its address. */
    ServerAddress begin() {
        attempted = addresses.current();
        roundLeft--;
        return attempted;
    }

    /** The attempt was welcomed: delays, redirects and rounds count from zero again. */
    void welcomed() {
        backoff.reset();
        trail.reset();
        roundFailures.clear();
        unreachable.clear();
    }

    /**
     * The attempt failed before WELCOME with {@code failure}. A server's refusal ({@link TroupeClientException},
     * e.g. {@code auth.failed}) ends the round where it is; a network failure moves on to the next address.
     *
     * @return true when the round has another address to try at once; false when it has failed, the earlier
     *         failures of the round then attached to {@code failure} as suppressed exceptions
     */
    boolean nextInRound(Throwable failure) {
        boolean refused = failure instanceof TroupeClientException;
        if (!refused) {
            unreachable.add(attempted);
            addresses.advance();
            if (roundLeft > 0) {
                roundFailures.add(failure);
                return true;
            }
        }
        for (Throwable earlier : roundFailures) {
            if (earlier != failure) {
                failure.addSuppressed(earlier);
            }
        }
        roundFailures.clear();
        return false;
    }

    /** The backoff delay before the next round, counting one more. */
    long newRoundDelayNanos() {
        return backoff.nextDelayNanos();
    }

    /**
     * The server attempted last redirected to {@code target} ({@code ""}: it could not name the owner).
     * Unless that is one redirect too many, the next attempt goes to the owner at once, or to the next
     * address after a backoff delay (also when the owner named could not be reached since the last
     * WELCOME); either starts a new round.
     */
    Redirection redirect(String target) {
        TroupeClientException tooMany = trail.follow(attempted.toString(), target);
        if (tooMany != null) {
            trail.reset();
            return new Redirection(tooMany, attempted, 0);
        }
        ServerAddress owner = owner(target);
        if (owner != null && unreachable.contains(owner)) {
            LOG.log(Level.DEBUG, "{0} redirected to {1}, which could not be reached just now; backing off", attempted,
                    owner);
            owner = null;
        }
        long delay = 0;
        if (owner != null) {
            addresses.redirectTo(owner);
        } else {
            addresses.advance();
            delay = backoff.nextDelayNanos();
        }
        return new Redirection(null, addresses.current(), delay);
    }

    /**
     * A session was told (ERROR {@code tenant.moved} for no request, then a close) where its tenant went:
     * reconnection starts there, though nothing is promised about its requests.
     */
    void ownerNamed(String target) {
        ServerAddress owner = owner(target);
        if (owner != null) {
            addresses.redirectTo(owner);
        }
    }

    /** The owner a redirect names, or null when it names none, or none that can be used (logged). */
    private ServerAddress owner(String target) {
        if (target.isEmpty()) {
            return null;
        }
        try {
            return ServerAddress.parse(target, attempted.port());
        } catch (IllegalArgumentException e) {
            LOG.log(Level.WARNING, "{0} redirected to an address that cannot be used ({1}); trying the next server",
                    attempted, e.getMessage());
            return null;
        }
    }
}
