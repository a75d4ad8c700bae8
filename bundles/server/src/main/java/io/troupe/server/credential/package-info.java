/**
 * Tenant credentials at rest, with nothing but the JDK: the stored token hash ({@link
 * io.troupe.server.credential.TokenHash}, PBKDF2-HMAC-SHA256), generated tokens and the minimum length
 * ({@link io.troupe.server.credential.TenantToken}), the text of tenant files ({@link
 * io.troupe.server.credential.TenantFile}) and their owner-only, atomic writing ({@link
 * io.troupe.server.credential.SecretFile}).
 *
 * <pre>
 *   TenantConfig (token / tokenHash) ──► TokenHash ◄── Authenticator.verify (off the IO loops)
 *   TenantDirectory: plaintext token ──► TenantFile.withTokenHash ──► SecretFile.replace (0600)
 *   troupe:tenant-add / tenant-rotate-token (shell bundle, which embeds this package) ──► the same
 * </pre>
 *
 * <p>Not exported: the server bundle and the shell bundle each carry a private copy (it depends on the
 * JDK only).
 *
 * <h2>Threading</h2>
 * Immutable values and stateless functions; any thread.
 */
package io.troupe.server.credential;
