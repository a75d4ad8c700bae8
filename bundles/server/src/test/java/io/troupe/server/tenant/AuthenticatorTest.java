package io.troupe.server.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.troupe.server.auth.Authenticator;
import io.troupe.server.auth.Authenticator.Outcome;
import io.troupe.server.auth.Authenticator.Result;
import io.troupe.server.auth.LoginGuard;
import io.troupe.server.credential.TokenHash;

/**
 * The authenticator with a manual verifier queue and a manual loop: what is verified where, the full
 * queue, unknown tenants, the cache of verified tokens and its invalidation, the guard's block, and
 * certificate-only tenants. (In this package: a test changes a tenant's configuration as the directory does.)
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread, which plays both the loop and the verifiers.
 */
class AuthenticatorTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final TenantDirectory tenants = new TenantDirectory(null, now::get);
    private final Queue<Runnable> verifiers = new ArrayDeque<>();
    private final Queue<Runnable> loop = new ArrayDeque<>();
    private final List<Outcome> outcomes = new ArrayList<>();
    private final LoginGuard guard = new LoginGuard(now::get);
    private final Authenticator authenticator = Authenticator.with(tenants, guard, verifiers::add, 2);
    private final InetAddress address;

    AuthenticatorTest() throws Exception {
        address = InetAddress.getByName("127.0.0.3");
        tenants.serve(TenantConfig.from(null, Map.of("tenant", "acme", "tokenHash", TestTokens.HASH)));
    }

    @Test
    void theRightTokenIsVerifiedOffTheLoopAndTheOutcomeComesBackThroughIt() {
        hello("acme", TestTokens.TOKEN);
        assertEquals(List.of(), outcomes, "nothing before the verifier ran");
        assertEquals(1, verifiers.size());
        runVerifiers();
        assertEquals(List.of(), outcomes, "nothing before the loop ran");
        runLoop();
        assertEquals(Result.ACCEPTED, single().result());
        assertSame(tenants.find("acme").orElseThrow(), outcomes.get(0).tenant());
    }

    @Test
    void aWrongTokenAndAnUnknownTenantAreBothVerifiedAndRefused() {
        hello("acme", "w".repeat(32));
        hello("nobody", TestTokens.TOKEN);
        assertEquals(2, verifiers.size(), "an unknown tenant's token is hashed too (against a dummy hash)");
        runVerifiers();
        runLoop();
        assertEquals(List.of(Result.REFUSED, Result.REFUSED), outcomes.stream().map(Outcome::result).toList());
        assertEquals(List.of("wrong token", "unknown tenant"), outcomes.stream().map(Outcome::reason).toList());
    }

    @Test
    void whenTheVerifiersAreFullTheNextHelloIsBusyAtOnce() {
        hello("acme", "w".repeat(32));
        hello("acme", "v".repeat(32));
        hello("acme", TestTokens.TOKEN);
        runLoop();
        assertEquals(Result.BUSY, single().result());
        runVerifiers();
        hello("acme", TestTokens.TOKEN);
        assertEquals(1, verifiers.size(), "room again once verified");
    }

    @Test
    void helloesWithTheTokenBeingVerifiedShareThatVerificationInsteadOfBeingBusy() {
        for (int i = 0; i < 50; i++) {
            hello("acme", TestTokens.TOKEN); // every client reconnecting at once, before the cache knows the token
        }
        hello("acme", "w".repeat(32));
        hello("acme", "w".repeat(32));
        assertEquals(2, verifiers.size(), "one verification per distinct token, within the capacity of 2");
        runVerifiers();
        runLoop();
        assertEquals(52, outcomes.size());
        assertEquals(50, outcomes.stream().filter(outcome -> outcome.result() == Result.ACCEPTED).count());
        assertEquals(2, outcomes.stream().filter(outcome -> outcome.result() == Result.REFUSED).count(),
                "the wrong token's second HELLO shares the first's refusal, and counts as a failure of its own");
    }

    @Test
    void aVerifiedTokenIsAcceptedFromTheCacheUntilTheTenantsCredentialsChange() throws Exception {
        hello("acme", TestTokens.TOKEN);
        runVerifiers();
        runLoop();
        hello("acme", TestTokens.TOKEN);
        assertEquals(0, verifiers.size(), "a reconnect costs no hash");
        runLoop();
        assertEquals(List.of(Result.ACCEPTED, Result.ACCEPTED), outcomes.stream().map(Outcome::result).toList());
        hello("acme", "w".repeat(32));
        assertEquals(1, verifiers.size(), "another token is verified");
        verifiers.clear();

        Tenant acme = tenants.find("acme").orElseThrow();
        acme.update(TenantConfig.from(null, Map.of("tenant", "acme", "tokenHash", TestTokens.HASH, "weight", "2")));
        hello("acme", TestTokens.TOKEN);
        assertEquals(0, verifiers.size(), "new limits, same credentials: still cached");
        runLoop();
        String rotated = "r".repeat(32);
        acme.update(TenantConfig.from(null, Map.of("tenant", "acme", "tokenHash",
                TokenHash.of(rotated, TokenHash.MIN_ITERATIONS, new SecureRandom()).format())));
        outcomes.clear();
        hello("acme", TestTokens.TOKEN);
        assertEquals(1, verifiers.size(), "the cached token is verified again against the new hash");
        runVerifiers();
        runLoop();
        assertEquals(Result.REFUSED, single().result());
    }

    @Test
    void aVerificationInFlightWhenTheFileIsReReadWithTheSameCredentialsIsAccepted() throws Exception {
        hello("acme", TestTokens.TOKEN);
        Tenant acme = tenants.find("acme").orElseThrow();
        acme.update(TenantConfig.from(null, Map.of("tenant", "acme", "tokenHash", TestTokens.HASH)));
        runVerifiers();
        runLoop();
        assertEquals(Result.ACCEPTED, single().result());
    }

    @Test
    void aBlockedAddressIsRefusedWithoutVerifying() {
        for (int i = 0; i < LoginGuard.BLOCK_AFTER; i++) {
            hello("acme", "w".repeat(32));
            runVerifiers();
        }
        runLoop();
        outcomes.clear();
        hello("acme", TestTokens.TOKEN);
        assertEquals(0, verifiers.size());
        runLoop();
        assertEquals(Result.BLOCKED, single().result());
        assertEquals(LoginGuard.BLOCK_FOR, outcomes.get(0).delay());
    }

    @Test
    void aCertificateOnlyTenantIsRefusedOnPlaintextAfterADummyHashAsAnUnknownTenantIs() throws Exception {
        tenants.serve(TenantConfig.from(null, Map.of("tenant", "bound", "certificateSubject", "CN=client")));
        hello("bound", "");
        assertEquals(1, verifiers.size(), "refused no faster than an unknown tenant");
        runVerifiers();
        runLoop();
        assertEquals(Result.REFUSED, single().result());
        assertEquals("no TLS client certificate of subject cn=client", outcomes.get(0).reason());
        assertNull(outcomes.get(0).tenant());
    }

    @Test
    void aCertificateOnlyTenantIsAcceptedWithItsSubjectInAnyCaseOrSpacingAndNothingElse() throws Exception {
        tenants.serve(TenantConfig.from(null, Map.of("tenant", "bound", "certificateSubject", "CN=Client,O=Example")));
        hello("bound", "", new PeerSession("cn=client,  o=EXAMPLE"));
        hello("bound", "", new PeerSession("CN=Other,O=Example"));
        hello("bound", "", new PeerSession(null));
        assertEquals(2, verifiers.size(), "the refusals cost a dummy hash; the right certificate nothing");
        runVerifiers();
        runLoop();
        assertEquals(List.of(Result.ACCEPTED, Result.REFUSED, Result.REFUSED),
                outcomes.stream().map(Outcome::result).toList());
    }

    @Test
    void aTenantWithBothNeedsTheCertificateAndTheToken() throws Exception {
        tenants.serve(TenantConfig.from(null, Map.of("tenant", "both", "certificateSubject", "CN=client",
                "tokenHash", TestTokens.HASH)));
        for (Runnable attempt : List.<Runnable>of(() -> hello("both", TestTokens.TOKEN, new PeerSession("CN=other")),
                () -> hello("both", "w".repeat(32), new PeerSession("CN=client")),
                () -> hello("both", TestTokens.TOKEN, new PeerSession("CN=client")))) {
            attempt.run();
            runVerifiers();
            runLoop();
        }
        assertEquals(List.of(Result.REFUSED, Result.REFUSED, Result.ACCEPTED),
                outcomes.stream().map(Outcome::result).toList());
    }

    @Test
    void refusalsBeyondTheFreeOnesCarryTheGuardsDelay() {
        for (int i = 0; i < LoginGuard.FREE_FAILURES + 1; i++) {
            hello("acme", "w".repeat(32));
            runVerifiers();
        }
        runLoop();
        assertEquals(Duration.ZERO, outcomes.get(LoginGuard.FREE_FAILURES - 1).delay());
        assertEquals(LoginGuard.FIRST_DELAY, outcomes.get(LoginGuard.FREE_FAILURES).delay());
    }

    private void hello(String tenant, String token) {
        hello(tenant, token, null);
    }

    private void hello(String tenant, String token, javax.net.ssl.SSLSession tls) {
        authenticator.authenticate(address, tls, tenant, token.getBytes(StandardCharsets.UTF_8), loop::add,
                outcomes::add);
    }

    private void runVerifiers() {
        Runnable task;
        while ((task = verifiers.poll()) != null) {
            task.run();
        }
    }

    private void runLoop() {
        Runnable task;
        while ((task = loop.poll()) != null) {
            task.run();
        }
    }

    private Outcome single() {
        assertEquals(1, outcomes.size(), outcomes.toString());
        return outcomes.get(0);
    }
}
