package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS in the built distribution over real sockets: {@code bin/troupe tls-init}, the server configured
 * with its keystore, {@code bin/troupe-client} and a JDK TLS socket as clients. Covers the handshake and
 * an echo, an untrusted certificate, a wrong host name, renegotiation refused, live rotation to an expired
 * certificate, mutual TLS accepted and refused, and plaintext refused on a non-loopback address until
 * {@code allowPlaintext}.
 *
 * <p><b>Threading:</b> JUnit's thread; the server's output is read by {@link TroupeProcess}'s threads, the
 * clients run as processes or sockets with bounded waits.
 */
class TlsIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration APPLIED = Duration.ofSeconds(30);
    private static final Duration STOP = Duration.ofSeconds(10);
    private static final Duration CLIENT = Duration.ofSeconds(60);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    private static final String PASSWORD = "changeit-789";

    @TempDir
    Path dir;
    private Path home;
    private int port;

    @BeforeEach
    void install() throws IOException {
        port = TestInstallation.freePort();
        home = TestInstallation.copy(dir, port);
    }

    @Test
    void tlsInitMakesAKeystoreTheServerServesAndClientsVerify() throws Exception {
        ClientRun init = run(List.of(home.resolve("bin/troupe").toString(), "tls-init", "--host", "troupe.test"));
        assertEquals(0, init.exit, init.stderr);
        assertTrue(init.stdout.contains("  tls.keystore = etc/tls/server.p12\n  tls.keystorePasswordFile = "
                + "etc/tls/server.pass"), init.stdout);
        assertTrue(init.stdout.contains("troupe-client --tls --truststore trust.p12 --truststore-password-file "
                + "trust.pass"), init.stdout);
        Path tls = home.resolve("etc/tls");
        assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(tls));
        for (String file : List.of("server.p12", "server.pass", "server.crt", "trust.p12", "trust.pass")) {
            assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
                    Files.getPosixFilePermissions(tls.resolve(file)), file);
        }
        ClientRun again = run(List.of(home.resolve("bin/troupe").toString(), "tls-init"));
        assertEquals(1, again.exit);
        assertTrue(again.stderr.contains("server.p12 exists; give --force to replace it"), again.stderr);

        configure("host = 0.0.0.0\ntls.keystore = etc/tls/server.p12\ntls.keystorePasswordFile = etc/tls/server.pass\n"
                + "tls.protocols = TLSv1.3, TLSv1.2\n");
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            awaitLog("TLS on 0.0.0.0:" + port + ": TLSv1.3, TLSv1.2, client certificates none, certificate "
                    + "'CN=troupe.test'");
            awaitLog("Admission: at most ");

            ClientRun echo = client("request", "echo", "over tls");
            assertEquals(0, echo.exit, echo.stderr);
            assertEquals("over tls", echo.stdout);
            ClientRun bench = client("bench", "--connections", "4", "--pipeline", "8", "--size", "40000",
                    "--duration", "2s", "--warmup", "200ms", "--name", "echo");
            assertEquals(0, bench.exit, "40 KB frames, each over three TLS records, pipelined: " + bench.stderr
                    + bench.stdout);

            Path other = keytoolKeystore(dir.resolve("other.p12"), "other", PASSWORD);
            ClientRun untrusted = client("--truststore", trustStoreOf(other, "key").toString(),
                    "--truststore-password-file", testPassword().toString(), "request", "echo", "x");
            assertEquals(3, untrusted.exit, untrusted.stderr);
            assertTrue(untrusted.stderr.contains("TLS handshake with 127.0.0.1:" + port + " failed")
                    && untrusted.stderr.contains("PKIX path"), untrusted.stderr);

            ClientRun wrongName = client("--host", "127.0.0.2", "request", "echo", "x");
            assertEquals(3, wrongName.exit, wrongName.stderr);
            assertTrue(wrongName.stderr.contains("No subject alternative names matching IP address 127.0.0.2"),
                    wrongName.stderr);
            ClientRun unverified = client("--host", "127.0.0.2", "--no-hostname-verification", "request", "echo",
                    "any name");
            assertEquals(0, unverified.exit, unverified.stderr);

            renegotiationIsRefused(tls);

            Path ca = keytoolKeystore(dir.resolve("ca.p12"), "test-ca", PASSWORD);
            Path expired = expiredKeystore(ca, Files.readString(tls.resolve("server.pass")).strip());
            Files.copy(expired, tls.resolve("server.p12.new"));
            Files.move(tls.resolve("server.p12.new"), tls.resolve("server.p12"), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            awaitLog("TLS certificate reloaded: new connections get TLSv1.3, TLSv1.2, client certificates none, "
                    + "certificate 'CN=expired'");
            ClientRun stale = client("--truststore", trustStoreOf(ca, "key").toString(), "--truststore-password-file",
                    testPassword().toString(), "request", "echo", "x");
            assertEquals(3, stale.exit, stale.stderr);
            assertTrue(stale.stderr.contains("TLS handshake with 127.0.0.1:" + port + " failed")
                    && stale.stderr.contains("validity check failed"), stale.stderr);
            assertEquals(0, troupe.terminate(STOP));
        }
    }

    @Test
    void aServerNeedingClientCertificatesAdmitsATrustedOneOnlyOnceItsKeystoreArrives() throws Exception {
        Path clientKeys = keytoolKeystore(dir.resolve("client.p12"), "client-one", PASSWORD);
        Files.createDirectories(home.resolve("etc/tls"));
        Files.move(trustStoreOf(clientKeys, "key"), home.resolve("etc/tls/clients.p12"));
        Path passwordFile = testPassword();
        Files.writeString(home.resolve("etc/tls/clients.pass"), PASSWORD + "\n");
        configure("tls.keystore = etc/tls/server.p12\ntls.keystorePasswordFile = etc/tls/server.pass\n"
                + "tls.clientAuth = need\ntls.truststore = etc/tls/clients.p12\n"
                + "tls.truststorePasswordFile = etc/tls/clients.pass\n");
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            awaitLog("TLS configuration io.troupe.server cannot be used: tls.keystorePasswordFile "
                    + home.resolve("etc/tls/server.pass") + ": no such file; the server does not listen until it is "
                    + "fixed (its files are watched)");
            assertEquals(0, run(List.of(home.resolve("bin/troupe").toString(), "tls-init")).exit);
            troupe.awaitLineStartingWith("Troupe ready on ", STARTUP);
            awaitLog("client certificates need");

            ClientRun without = client("request", "echo", "x");
            assertEquals(3, without.exit, "no client certificate: " + without.stderr);

            ClientRun with = client("--keystore", clientKeys.toString(), "--keystore-password-file",
                    passwordFile.toString(), "request", "echo", "mutual");
            assertEquals(0, with.exit, with.stderr);
            assertEquals("mutual", with.stdout);
            assertEquals(0, troupe.terminate(STOP));
        }
    }

    @Test
    void plaintextOnEveryInterfaceIsRefusedUntilAllowedAndTlsTurnsOnWhileTroupeRuns() throws Exception {
        configure("host = 0.0.0.0\n");
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            awaitLog("Not listening on 0.0.0.0:" + port + ": the protocol would be plaintext on a non-loopback "
                    + "address: configure TLS (tls.keystore; bin/troupe tls-init makes a keystore to try it) or set "
                    + "allowPlaintext = true");
            assertEquals(3, client("--timeout", "2s", "request", "echo", "x").exit, "nothing listens");

            configure("host = 0.0.0.0\nallowPlaintext = true\n");
            awaitLog("The server listens on 0.0.0.0:" + port + " in PLAINTEXT (allowPlaintext = true)");
            ClientRun echo = client("request", "echo", "in clear");
            assertEquals(0, echo.exit, echo.stderr);
            assertEquals("in clear", echo.stdout);

            assertEquals(0, run(List.of(home.resolve("bin/troupe").toString(), "tls-init")).exit);
            configure("host = 0.0.0.0\ntls.keystore = etc/tls/server.p12\n"
                    + "tls.keystorePasswordFile = etc/tls/server.pass\n");
            awaitLog("TLS on 0.0.0.0:" + port + ": TLSv1.3");
            ClientRun secure = client("request", "echo", "now over tls");
            assertEquals(0, secure.exit, "turning TLS on re-binds: " + secure.stderr);
            assertEquals("now over tls", secure.stdout);
            assertEquals(0, troupe.terminate(STOP));
        }
    }

    /** A TLS 1.2 client that asks for a second handshake is refused: the connection fails or closes. */
    private void renegotiationIsRefused(Path tls) throws Exception {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.resolve("trust.p12"))) {
            trusted.load(in, Files.readString(tls.resolve("trust.pass")).strip().toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLSv1.2");
        context.init(null, trust.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setEnabledProtocols(new String[] {"TLSv1.2"});
            socket.setSoTimeout((int) APPLIED.toMillis());
            socket.startHandshake();
            assertEquals("TLSv1.2", socket.getSession().getProtocol());
            try {
                socket.startHandshake();
                OutputStream out = socket.getOutputStream();
                out.write(new byte[] {0, 0, 0, 0});
                out.flush();
                int read = socket.getInputStream().read();
                assertEquals(-1, read, "the server closes instead of renegotiating");
            } catch (SocketTimeoutException e) {
                fail("the server neither renegotiated nor closed within " + APPLIED);
            } catch (IOException expected) {
                // refused: an alert or a reset
            }
        }
    }

    /** A file holding {@value #PASSWORD}, the password of every store the test makes itself. */
    private Path testPassword() throws IOException {
        Path file = dir.resolve("test.pass");
        if (!Files.exists(file)) {
            Files.writeString(file, PASSWORD + "\n");
        }
        return file;
    }

    /** A keystore with one EC key, alias {@code key}, self-signed for localhost and 127.0.0.1, 30 days. */
    private Path keytoolKeystore(Path file, String cn, String password) throws IOException, InterruptedException {
        keytool("-genkeypair", "-alias", "key", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + cn,
                "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-ext", "bc:c", "-validity", "30", "-storetype", "PKCS12",
                "-keystore", file.toString(), "-storepass", password, "-keypass", password);
        return file;
    }

    /**
     * A keystore (password {@code password}) whose certificate, signed by the key of {@code ca}, expired 29 days
     * ago: a chain that PKIX validates, so that the expiry is checked (a directly trusted certificate is not).
     */
    private Path expiredKeystore(Path ca, String password) throws IOException, InterruptedException {
        Path file = dir.resolve("expired.p12");
        keytool("-genkeypair", "-alias", "key", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=expired",
                "-validity", "30", "-storetype", "PKCS12", "-keystore", file.toString(), "-storepass", password,
                "-keypass", password);
        Path request = dir.resolve("expired.csr");
        keytool("-certreq", "-alias", "key", "-keystore", file.toString(), "-storepass", password, "-file",
                request.toString());
        Path signed = dir.resolve("expired.crt");
        keytool("-gencert", "-rfc", "-alias", "key", "-keystore", ca.toString(), "-storepass", PASSWORD, "-infile",
                request.toString(), "-outfile", signed.toString(), "-startdate", "-30d", "-validity", "1",
                "-ext", "SAN=dns:localhost,ip:127.0.0.1");
        Path caCertificate = dir.resolve("ca.crt");
        keytool("-exportcert", "-rfc", "-alias", "key", "-keystore", ca.toString(), "-storepass", PASSWORD, "-file",
                caCertificate.toString());
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", caCertificate.toString(), "-keystore",
                file.toString(), "-storepass", password);
        keytool("-importcert", "-alias", "key", "-file", signed.toString(), "-keystore", file.toString(),
                "-storepass", password, "-keypass", password);
        return file;
    }

    /** A PKCS#12 trust store (password {@value #PASSWORD}) of the certificate {@code alias} of {@code keystore}. */
    private Path trustStoreOf(Path keystore, String alias) throws IOException, InterruptedException {
        Path pem = Files.createTempFile(dir, "cert", ".pem");
        keytool("-exportcert", "-rfc", "-alias", alias, "-keystore", keystore.toString(), "-storepass", PASSWORD,
                "-file", pem.toString());
        Path trust = dir.resolve(keystore.getFileName() + ".trust.p12");
        keytool("-importcert", "-noprompt", "-alias", "trusted", "-file", pem.toString(), "-storetype", "PKCS12",
                "-keystore", trust.toString(), "-storepass", PASSWORD);
        return trust;
    }

    private void keytool(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(keytool());
        command.addAll(List.of(arguments));
        ClientRun made = run(command);
        assertEquals(0, made.exit, "keytool " + String.join(" ", arguments) + ": " + made.stdout + made.stderr);
    }

    private static String keytool() {
        return JAVA_HOME.resolve("bin/keytool").toString();
    }

    private void configure(String lines) throws IOException {
        Path serverConfig = home.resolve("etc/io.troupe.server.cfg");
        String base = Files.readString(serverConfig)
                .replaceAll("(?m)^(host|allowPlaintext|tls\\.[a-zA-Z]+) = .*\n", "");
        Files.writeString(serverConfig, base + lines);
    }

    /** What one process printed and returned. */
    private record ClientRun(int exit, String stdout, String stderr) {
    }

    /** Runs {@code bin/troupe-client} from a foreign working directory with the installation's defaults. */
    private ClientRun client(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin/troupe-client").toString());
        command.addAll(List.of(arguments));
        return run(command);
    }

    private ClientRun run(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
        builder.environment().remove("JAVA_OPTS");
        builder.environment().remove("TROUPE_TOKEN");
        builder.environment().put("JAVA_HOME", JAVA_HOME.toString());
        Path out = Files.createTempFile(dir, "run", ".out");
        Path err = Files.createTempFile(dir, "run", ".err");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        process.getOutputStream().close();
        if (!process.waitFor(CLIENT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within " + CLIENT);
        }
        return new ClientRun(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8).strip(),
                Files.readString(err, StandardCharsets.UTF_8).strip());
    }

    /** Waits until log/troupe.log has a line containing {@code text} (the logger writes every second). */
    private void awaitLog(String text) throws IOException {
        Path log = home.resolve("log/troupe.log");
        long deadline = System.nanoTime() + APPLIED.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (Files.exists(log) && Files.readString(log, StandardCharsets.UTF_8).contains(text)) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        fail("log/troupe.log has no line with: " + text + "\n" + logTail(log));
    }

    /** The last lines of the log, so that a failed wait shows what the server said instead. */
    private static String logTail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "(no log/troupe.log)";
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return "last lines of log/troupe.log:\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
