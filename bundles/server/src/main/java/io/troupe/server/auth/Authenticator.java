package io.troupe.server.auth;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Principal;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.security.auth.x500.X500Principal;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.server.credential.TenantToken;
import io.troupe.server.credential.TokenHash;
import io.troupe.server.tenant.Tenant;
import io.troupe.server.tenant.TenantConfig;
import io.troupe.server.tenant.TenantDirectory;

/**
 * Checks HELLOs off the IO loops: the token against the tenant's PBKDF2 {@link TokenHash} on a small pool
 * of verifier threads, the TLS client certificate's subject against the tenant's
 * {@code certificateSubject}, and the source address against the {@link LoginGuard}.
 *
 * <pre>
 *  IO loop: authenticate(address, tls, tenant, token, loop, then)
 *    address blocked ─────────────────────────────────────────────► BLOCKED  (nothing verified)
 *    certificateSubject set and not the peer's: as an unknown tenant (dummy hash) ─► REFUSED
 *    no tokenHash (certificate only), subject matched ────────────► ACCEPTED
 *    token verified before for this configuration (cache) ────────► ACCEPTED
 *    the same token being verified for another HELLO ─────────────► its outcome, shared (no second hash)
 *    pool and queue full ─────────────────────────────────────────► BUSY     (server.busy)
 *    else ─► verifier thread: PBKDF2(token) =? tokenHash ─► ACCEPTED, or REFUSED (guard's delay)
 *  every outcome reaches {@code then} on the connection's loop, through {@code loop.execute}
 * </pre>
 *
 * <p>What held before holds: an unknown tenant's token is verified against a dummy hash of the same
 * cost, so unknown tenants take as long as wrong tokens (and as wrong certificates, which are refused the
 * same way); hashes are compared in constant time. The cache
 * keeps, per tenant, an HMAC-SHA256 (keyed with a random per-process key) of the last token verified
 * together with the configuration it was verified against: a reconnect costs one HMAC on the loop, and
 * a change of the tenant's credentials (a rotated token, a new hash or certificate subject in its file)
 * makes the entry stale at once; a change of its limits alone does not.
 * The cache never holds a token, and a memory dump gives nothing an offline guesser could use faster
 * than the file's hash.
 *
 * <p>Pool: {@link #defaultThreads()} verifier threads ({@code troupe-auth-N}, half the cores, at least 1)
 * and a queue of {@value #QUEUE_PER_THREAD} HELLOs per thread. At ~190 ms per verification on the
 * 2-core test machine, the last HELLO in a full queue waits about 3 s; one more is answered
 * {@code server.busy} at once. One more thread ({@code troupe-auth-log}) writes the failed HELLOs'
 * summary ({@link FailedHelloLog}) every {@link #SUMMARY_INTERVAL} and sweeps the guard.
 *
 * <p><b>Threading:</b> {@link #authenticate} from any thread (IO loops), without blocking: a map read, a
 * CAS, one HMAC, an executor hand-off; {@link #close} once, when the server stops.
 */
public final class Authenticator implements AutoCloseable {

    /** The kind of an {@link Outcome}. */
    public enum Result {
        /** The credentials are the tenant's. */
        ACCEPTED,
        /** Unknown tenant, wrong token or wrong certificate; answer after {@link Outcome#delay()}. */
        REFUSED,
        /** The address is blocked for {@link Outcome#delay()} more; nothing was verified. */
        BLOCKED,
        /** Too many HELLOs wait for verification; nothing was verified. */
        BUSY
    }

    /**
     * How a HELLO went.
     *
     * @param tenant the tenant when {@link Result#ACCEPTED}, else {@code null}
     * @param delay  for {@link Result#REFUSED}: how long to wait before answering; for
     *               {@link Result#BLOCKED}: how long the block lasts; else zero
     * @param reason for the log (DEBUG): why it was refused, never the token
     */
    public record Outcome(Result result, Tenant tenant, Duration delay, String reason) {
    }

    /**
     * The framework (or system) property that turns the failed-HELLO throttle off when {@code false} (default
     * {@code true}): for test rigs that poll with credentials the server does not know yet; never on a network.
     */
    public static final String THROTTLE_PROPERTY = "troupe.auth.throttle";
    /** HELLOs queued per verifier thread. */
    public static final int QUEUE_PER_THREAD = 16;
    /** How often failed HELLOs are summarised in one WARN line. */
    public static final Duration SUMMARY_INTERVAL = Duration.ofSeconds(60);

    private static final Logger LOG = LoggerFactory.getLogger(Authenticator.class);
    private static final String MAC = "HmacSHA256";

    private final TenantDirectory tenants;
    private final LoginGuard guard;
    private final FailedHelloLog failures = new FailedHelloLog();
    private final Executor verifiers;
    private final ThreadPoolExecutor ownPool;
    private final ScheduledExecutorService timer;
    private final int capacity;
    private final AtomicInteger waiting = new AtomicInteger();
    private final TokenHash dummy;
    private final SecretKeySpec cacheKey;
    private final ConcurrentHashMap<String, Verified> cache = new ConcurrentHashMap<>();
    /**
     * Verifications running, by tenant and token (its HMAC): a HELLO with the same token as one being
     * verified waits for that outcome instead of hashing again, so that every client of a tenant
     * reconnecting at once (after a restart) costs one verification, not one each.
     */
    private final ConcurrentHashMap<String, CompletableFuture<Boolean>> verifying = new ConcurrentHashMap<>();

    /** The last token verified for a tenant, as an HMAC, and the configuration it was verified against. */
    private record Verified(TenantConfig config, byte[] mac) {
    }

    /**
     * @param verifiers where tokens are verified; at most {@code capacity} HELLOs wait for it or run in it
     * @param timer     runs the summary and the guard's sweep every {@link #SUMMARY_INTERVAL}; may be null
     *                  (tests call {@link #summarise} themselves)
     */
    Authenticator(TenantDirectory tenants, LoginGuard guard, Executor verifiers, int capacity,
            ScheduledExecutorService timer) {
        this(tenants, guard, verifiers, null, capacity, timer);
    }

    private Authenticator(TenantDirectory tenants, LoginGuard guard, Executor verifiers, ThreadPoolExecutor ownPool,
            int capacity, ScheduledExecutorService timer) {
        this.tenants = Objects.requireNonNull(tenants, "tenants");
        this.guard = Objects.requireNonNull(guard, "guard");
        this.verifiers = Objects.requireNonNull(verifiers, "verifiers");
        this.ownPool = ownPool;
        this.capacity = capacity;
        this.timer = timer;
        SecureRandom random = new SecureRandom();
        this.dummy = TokenHash.of(TenantToken.generate(random), random);
        byte[] key = new byte[32];
        random.nextBytes(key);
        this.cacheKey = new SecretKeySpec(key, MAC);
        if (timer != null) {
            long period = SUMMARY_INTERVAL.toMillis();
            timer.scheduleAtFixedRate(this::summarise, period, period, TimeUnit.MILLISECONDS);
        }
    }

    /** An authenticator with its own verifier threads ({@link #defaultThreads()}) and summary thread. */
    public static Authenticator start(TenantDirectory tenants, LongSupplier nanoClock) {
        int threads = defaultThreads();
        int capacity = threads * (QUEUE_PER_THREAD + 1);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(threads * QUEUE_PER_THREAD), daemons("troupe-auth-"),
                new ThreadPoolExecutor.AbortPolicy());
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, daemons("troupe-auth-log"));
        timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        boolean throttle = !"false".equalsIgnoreCase(property(THROTTLE_PROPERTY, "true").strip());
        if (!throttle) {
            LOG.warn("{}=false: failed HELLOs are not throttled (for tests only)", THROTTLE_PROPERTY);
        }
        LoginGuard guard = throttle ? new LoginGuard(nanoClock) : LoginGuard.disabled(nanoClock);
        return new Authenticator(tenants, guard, pool, pool, capacity, timer);
    }

    /**
     * An authenticator that verifies on {@code verifiers} (at most {@code capacity} HELLOs at once in it),
     * with no summary thread: for tests that drive the loop themselves, and for embedding.
     */
    public static Authenticator with(TenantDirectory tenants, LoginGuard guard, Executor verifiers, int capacity) {
        return new Authenticator(tenants, guard, verifiers, capacity, null);
    }

    /** Half the cores, at least one: verification must leave the IO loops and workers room. */
    public static int defaultThreads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }

    /**
     * Checks a HELLO; {@code then} receives the outcome through {@code loop} (the connection's
     * {@code execute}), never before this method returns.
     *
     * @param address where the HELLO came from (the guard's key)
     * @param tls     the connection's TLS session, or {@code null} on plaintext
     * @param tenantId the HELLO's name
     * @param token   the HELLO's content
     */
    public void authenticate(InetAddress address, SSLSession tls, String tenantId, byte[] token, Executor loop,
            Consumer<Outcome> then) {
        Duration blocked = guard.blockedFor(address);
        if (!blocked.isZero()) {
            failures.refusedWhileBlocked(address);
            loop.execute(() -> then.accept(new Outcome(Result.BLOCKED, null, blocked, "address blocked")));
            return;
        }
        Tenant found = tenants.find(tenantId).orElse(null);
        TenantConfig foundConfig = found == null ? null : found.config();
        // a wrong certificate is refused as an unknown tenant is: after a dummy hash of the same cost
        String refusal = found == null ? "unknown tenant"
                : foundConfig.certificateSubject() != null && !subjectMatches(tls, foundConfig)
                        ? "no TLS client certificate of subject " + foundConfig.certificateSubject() : null;
        Tenant tenant = refusal == null ? found : null;
        TenantConfig config = refusal == null ? foundConfig : null;
        if (config != null && config.tokenHash() == null) {
            loop.execute(() -> then.accept(accepted(tenant, config)));
            return;
        }
        byte[] mac = config == null ? null : mac(tenantId, token);
        Verified verified = config == null ? null : cache.get(tenantId);
        if (verified != null && sameCredentials(verified.config(), config)
                && MessageDigest.isEqual(verified.mac(), mac)) {
            loop.execute(() -> then.accept(accepted(tenant, config)));
            return;
        }
        CompletableFuture<Boolean> mine = null;
        String key = null;
        if (config != null) {
            key = tenantId + '\0' + Base64.getEncoder().encodeToString(mac);
            mine = new CompletableFuture<>();
            CompletableFuture<Boolean> running = verifying.putIfAbsent(key, mine);
            if (running != null) {
                running.whenComplete((valid, busy) -> {
                    Outcome outcome = busy != null ? new Outcome(Result.BUSY, null, Duration.ZERO, "verifiers busy")
                            : valid ? accepted(tenant, config) : refused(address, "wrong token");
                    loop.execute(() -> then.accept(outcome));
                });
                return;
            }
        }
        if (!reserve()) {
            settle(key, mine, null);
            loop.execute(() -> then.accept(new Outcome(Result.BUSY, null, Duration.ZERO, "verifiers busy")));
            return;
        }
        String settled = key;
        CompletableFuture<Boolean> shared = mine;
        try {
            verifiers.execute(() -> {
                Outcome outcome = null;
                try {
                    outcome = verify(address, tenantId, tenant, config, token, mac, refusal);
                } finally {
                    waiting.decrementAndGet();
                    settle(settled, shared, outcome);
                }
                Outcome result = outcome;
                loop.execute(() -> then.accept(result));
            });
        } catch (RejectedExecutionException e) {
            waiting.decrementAndGet();
            settle(key, mine, null);
            loop.execute(() -> then.accept(new Outcome(Result.BUSY, null, Duration.ZERO, "verifiers stopped")));
        }
    }

    /**
     * Ends a shared verification: HELLOs that waited for it learn whether the token was right, or that the
     * verifiers were busy ({@code outcome} null).
     */
    private void settle(String key, CompletableFuture<Boolean> shared, Outcome outcome) {
        if (shared == null) {
            return;
        }
        verifying.remove(key, shared);
        if (outcome == null) {
            shared.completeExceptionally(new RejectedExecutionException("verifiers busy"));
        } else {
            shared.complete(outcome.result() == Result.ACCEPTED);
        }
    }

    /** Writes the failed HELLOs' summary of the interval just ended (if any failed) and sweeps the guard. */
    void summarise() {
        try {
            guard.sweep();
            String line = failures.summary(SUMMARY_INTERVAL, guard.blockedAddresses());
            if (line != null) {
                LOG.warn(line);
            }
        } catch (RuntimeException e) {
            LOG.error("Summarising failed HELLOs failed", e);
        }
    }

    /** The guard, for the session's view of blocked addresses and for tests. */
    LoginGuard guard() {
        return guard;
    }

    /**
     * Stops the verifier and summary threads, writing a last summary. HELLOs still queued are dropped
     * unanswered: their sessions are being closed by the server's shutdown; new ones are answered busy.
     */
    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
        if (ownPool != null) {
            ownPool.shutdownNow();
        }
        String line = failures.summary(SUMMARY_INTERVAL, guard.blockedAddresses());
        if (line != null) {
            LOG.warn(line.replace("in the last " + SUMMARY_INTERVAL.toSeconds() + " s", "since the last summary"));
        }
    }

    /** @param refusal why a HELLO without {@code config} is refused (verified against the dummy hash) */
    private Outcome verify(InetAddress address, String tenantId, Tenant tenant, TenantConfig config, byte[] token,
            byte[] mac, String refusal) {
        TokenHash hash = config == null ? dummy : config.tokenHash();
        boolean valid = hash.verify(token) && config != null;
        if (!valid) {
            return refused(address, config == null ? refusal : "wrong token");
        }
        cache.put(tenantId, new Verified(config, mac));
        return accepted(tenant, config);
    }

    private Outcome accepted(Tenant tenant, TenantConfig config) {
        if (tenant.isRemoved() || !sameCredentials(tenant.config(), config)) {
            // removed, or its credentials changed while being verified: refused as the new ones would
            return new Outcome(Result.REFUSED, null, Duration.ZERO, "tenant changed during verification");
        }
        return new Outcome(Result.ACCEPTED, tenant, Duration.ZERO, null);
    }

    private Outcome refused(InetAddress address, String reason) {
        failures.failed(address);
        LoginGuard.Verdict verdict = guard.failed(address);
        String why = verdict.blocks() ? reason + "; address now blocked for " + LoginGuard.BLOCK_FOR.toMinutes()
                + " min" : reason;
        return new Outcome(Result.REFUSED, null, verdict.delay(), why);
    }

    private boolean reserve() {
        int current;
        do {
            current = waiting.get();
            if (current >= capacity) {
                return false;
            }
        } while (!waiting.compareAndSet(current, current + 1));
        return true;
    }

    private byte[] mac(String tenantId, byte[] token) {
        try {
            Mac mac = Mac.getInstance(MAC);
            mac.init(cacheKey);
            mac.update(tenantId.getBytes(UTF_8));
            mac.update((byte) 0);
            return mac.doFinal(token);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java platform has " + MAC, e);
        }
    }

    /**
     * Whether two configurations of a tenant have the same credentials: a file re-read with other limits, or
     * rewritten by the token's migration, keeps the cache and the verifications in flight.
     */
    private static boolean sameCredentials(TenantConfig one, TenantConfig other) {
        return one == other || (Objects.equals(one.tokenHash(), other.tokenHash())
                && Objects.equals(one.certificateSubject(), other.certificateSubject()));
    }

    private static boolean subjectMatches(SSLSession tls, TenantConfig config) {
        if (tls == null) {
            return false;
        }
        try {
            Principal peer = tls.getPeerPrincipal();
            return peer instanceof X500Principal subject
                    && subject.getName(X500Principal.CANONICAL).equals(config.certificateSubject());
        } catch (SSLPeerUnverifiedException e) {
            return false;
        }
    }

    /** A framework property (which falls back to the system property), or {@code fallback}. */
    private static String property(String key, String fallback) {
        Bundle bundle = FrameworkUtil.getBundle(Authenticator.class);
        BundleContext context = bundle == null ? null : bundle.getBundleContext();
        String value = context == null ? System.getProperty(key) : context.getProperty(key);
        return value == null ? fallback : value;
    }

    private static ThreadFactory daemons(String name) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, name.endsWith("-") ? name + count.incrementAndGet() : name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
