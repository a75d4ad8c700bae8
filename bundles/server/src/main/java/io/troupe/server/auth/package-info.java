/**
 * Authentication of HELLOs, off the IO loops, and the throttling of failed ones per source address.
 *
 * <pre>
 *  Session.hello (IO loop) ──► Authenticator.authenticate(address, tls, tenant, token)
 *        │                        ├─ LoginGuard: address blocked? ──► BLOCKED at once
 *        │ decodes nothing        ├─ certificateSubject vs the TLS peer; cache of verified tokens (HMAC)
 *        │ meanwhile              └─ verifier threads: PBKDF2 (TokenHash) ──► ACCEPTED / REFUSED / BUSY
 *        ◄── connection.execute(outcome) ───┘
 *  REFUSED: ERROR auth.failed after the guard's delay (connection.schedule, never a sleep)
 *  FailedHelloLog: one WARN line per minute with the counts; one DEBUG line per failure
 * </pre>
 *
 * <p>Private to the server bundle: not exported, not versioned.
 *
 * <h2>Threading</h2>
 * {@link io.troupe.server.auth.Authenticator#authenticate} and the {@link io.troupe.server.auth.LoginGuard}
 * are called from every IO loop without locks; verification runs on the authenticator's threads and hands
 * its outcome back to the connection's loop.
 */
package io.troupe.server.auth;
