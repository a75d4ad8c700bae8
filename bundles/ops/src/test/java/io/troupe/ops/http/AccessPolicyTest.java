package io.troupe.ops.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.troupe.ops.http.AccessPolicy.Verdict;

/**
 * Who may have which request: the open paths, the token, the console's cookie and its CSRF header.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class AccessPolicyTest {

    private static final String SECRET = "0123456789abcdef-secret";
    private static final Optional<AdminToken> TOKEN = Optional.of(AdminToken.of(SECRET));

    @Test
    void healthIsOpenToAnybodyWithoutCredentials() {
        assertEquals(Verdict.OPEN, decide("GET", "/health/live", null, null, null).verdict());
        assertEquals(Verdict.OPEN, decide("GET", "/health/ready", null, null, null).verdict());
        assertEquals(Verdict.OPEN, decide("GET", "/health", null, null, null).verdict());
        assertEquals(Verdict.OPEN, AccessPolicy.decide("GET", "/health/ready", null, null, null,
                Optional.empty()).verdict());
    }

    @Test
    void aPathThatOnlyStartsLikeHealthIsNotOpen() {
        assertEquals(Verdict.UNAUTHORIZED, decide("GET", "/healthz", null, null, null).verdict());
        assertEquals(Verdict.UNAUTHORIZED, decide("GET", "/health-check", null, null, null).verdict());
    }

    @Test
    void everyOtherPathNeedsTheToken() {
        AccessPolicy.Decision refused = decide("GET", "/metrics", null, null, null);
        assertEquals(Verdict.UNAUTHORIZED, refused.verdict());
        assertTrue(refused.message().contains("Authorization: Bearer <token>"), refused.message());
        assertEquals(Verdict.UNAUTHORIZED, decide("GET", "/", null, null, null).verdict());
        assertEquals(Verdict.UNAUTHORIZED, decide("GET", "/no/such/path", null, null, null).verdict());
        assertEquals(Verdict.UNAUTHORIZED, decide("GET", "/console/login", null, null, null).verdict());
    }

    @Test
    void theRightBearerTokenAdmitsAndAWrongOneDoesNot() {
        AccessPolicy.Decision admitted = decide("GET", "/metrics", "Bearer " + SECRET, null, null);
        assertEquals(Verdict.ADMITTED, admitted.verdict());
        assertNull(admitted.message());
        assertEquals(Verdict.ADMITTED, decide("POST", "/console/api/x", "bearer  " + SECRET + " ", null, null)
                .verdict());
        assertEquals(Verdict.UNAUTHORIZED, decide("GET", "/metrics", "Bearer " + SECRET + "x", null, null).verdict());
        assertEquals(Verdict.UNAUTHORIZED, decide("GET", "/metrics", "Bearer " + SECRET.substring(1), null, null)
                .verdict());
        assertEquals(Verdict.UNAUTHORIZED, decide("GET", "/metrics", "Basic " + SECRET, null, null).verdict());
        assertEquals(Verdict.UNAUTHORIZED, decide("GET", "/metrics", "Bearer", null, null).verdict());
    }

    @Test
    void aWrongBearerTokenIsNotRescuedByARightCookie() {
        String cookie = TOKEN.get().cookieValue();
        assertEquals(Verdict.UNAUTHORIZED, decide("GET", "/metrics", "Bearer nope-nope-nope-nope", cookie, null)
                .verdict());
    }

    @Test
    void theConsoleCookieAdmitsReadsAndChangesOnlyWithTheConsoleHeader() {
        String cookie = TOKEN.get().cookieValue();
        assertEquals(Verdict.ADMITTED, decide("GET", "/console/api/overview", null, cookie, null).verdict());
        AccessPolicy.Decision forged = decide("POST", "/console/api/actors/1/stop", null, cookie, null);
        assertEquals(Verdict.FORBIDDEN, forged.verdict());
        assertTrue(forged.message().contains("X-Troupe-Console: 1"), forged.message());
        assertEquals(Verdict.FORBIDDEN, decide("DELETE", "/console/api/x", null, cookie, "yes").verdict());
        assertEquals(Verdict.ADMITTED, decide("POST", "/console/api/actors/1/stop", null, cookie, "1").verdict());
    }

    @Test
    void theCookieIsNotTheTokenAndAnOldCookieStopsWorkingWhenTheTokenChanges() {
        assertEquals(Verdict.UNAUTHORIZED, decide("GET", "/metrics", null, SECRET, null).verdict());
        String oldCookie = AdminToken.of("another-token-of-the-past").cookieValue();
        assertEquals(Verdict.UNAUTHORIZED, decide("GET", "/metrics", null, oldCookie, null).verdict());
    }

    @Test
    void theConsolesPageAndItsFilesAreOpenToReadButItsApiIsNot() {
        assertEquals(Verdict.OPEN, decide("GET", "/console", null, null, null).verdict());
        assertEquals(Verdict.OPEN, decide("HEAD", "/console/", null, null, null).verdict());
        assertEquals(Verdict.OPEN, decide("GET", "/console/static/console.js", null, null, null).verdict());
        assertEquals(Verdict.UNAUTHORIZED, decide("GET", "/console/static/", null, null, null).verdict());
        assertEquals(Verdict.UNAUTHORIZED, decide("POST", "/console", null, null, null).verdict());
        assertEquals(Verdict.UNAUTHORIZED, decide("GET", "/console/api/overview", null, null, null).verdict());
        assertEquals(Verdict.UNAUTHORIZED, decide("GET", "/consoleX", null, null, null).verdict());
    }

    @Test
    void loginIsOpenForPostOnly() {
        assertEquals(Verdict.OPEN, decide("POST", "/console/login", null, null, null).verdict());
        assertEquals(Verdict.UNAUTHORIZED, decide("POST", "/console/logout", null, null, null).verdict());
    }

    @Test
    void withoutAUsableTokenOnTheServerNothingButTheOpenPathsIsAdmitted() {
        AccessPolicy.Decision refused = AccessPolicy.decide("GET", "/metrics", "Bearer " + SECRET, null, null,
                Optional.empty());
        assertEquals(Verdict.UNAUTHORIZED, refused.verdict());
        assertTrue(refused.message().contains("no usable token"), refused.message());
    }

    @Test
    void traceIsRefusedEverywhereEvenWithTheToken() {
        assertEquals(Verdict.METHOD_NOT_ALLOWED, decide("TRACE", "/health/live", null, null, null).verdict());
        assertEquals(Verdict.METHOD_NOT_ALLOWED, decide("TRACE", "/metrics", "Bearer " + SECRET, null, null)
                .verdict());
    }

    @Test
    void readsTheBearerCredentialsOfAnAuthorizationHeader() {
        assertEquals("abc", AccessPolicy.bearer("Bearer abc"));
        assertEquals("abc", AccessPolicy.bearer("BEARER   abc  "));
        assertNull(AccessPolicy.bearer("Bearer "));
        assertNull(AccessPolicy.bearer("Basic YWxhZGRpbg=="));
        assertNull(AccessPolicy.bearer(null));
    }

    private static AccessPolicy.Decision decide(String method, String path, String authorization, String cookie,
            String consoleHeader) {
        return AccessPolicy.decide(method, path, authorization, cookie, consoleHeader, TOKEN);
    }
}
