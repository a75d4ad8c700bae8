/**
 * TLS for the server's listener, configured by the {@code tls.*} keys of {@code io.troupe.server}.
 *
 * <pre>
 *   TlsSettings (keys, checked for form)
 *        │ build (SCR or rotation thread: reads files)
 *        ▼
 *   ServerTlsContext ◄── StoreFile ×2 (PKCS#12 keystore, trust store; password from cfg or file)
 *        │ swap (volatile)                    ▲ content changed (FileFingerprint, every second)
 *        ▼                                    │
 *   ServerTlsEngines ──newEngine(peer)──► the host's reactor (IO loops), one engine per connection
 *        ▲
 *   CertificateRotation (own daemon thread)
 * </pre>
 *
 * <p>The reactor runs the handshakes; this package only decides which certificate, protocols and client
 * policy an engine gets. Nothing here runs on an IO loop but {@code newEngine}, which touches no file.
 */
package io.troupe.server.tls;
