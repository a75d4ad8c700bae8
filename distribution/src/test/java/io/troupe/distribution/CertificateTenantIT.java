package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;

/**
 * A tenant bound to a client certificate, against the real distribution over mutual TLS: its
 * {@code certificateSubject} must be the verified peer's subject, in addition to its token. Two client
 * certificates both trusted by the server; only the tenant's own opens a session, and only with the
 * tenant's token.
 *
 * <p><b>Threading:</b> the test thread.
 */
class CertificateTenantIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration REPLY = Duration.ofSeconds(10);
    private static final Duration STOP = Duration.ofSeconds(10);
    private static final Duration TOOL = Duration.ofSeconds(60);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    private static final String PASSWORD = "changeit-cert-tenant";
    private static final String TOKEN = "bound-token-0123456789-abcdefghijklmn";

    @TempDir
    Path dir;

    @Test
    void aTenantBoundToACertificateSubjectNeedsThatCertificateBesideItsToken() throws Exception {
        int port = TestInstallation.freePort();
        Path home = TestInstallation.copy(dir, port);
        ToolRun init = run(List.of(home.resolve("bin/troupe").toString(), "tls-init"));
        assertEquals(0, init.exit, init.output);
        Path one = keystore("client-one");
        Path two = keystore("client-two");
        Path clients = home.resolve("etc/tls/clients.p12");
        trust(one, "one", clients);
        trust(two, "two", clients);
        Files.writeString(home.resolve("etc/tls/clients.pass"), PASSWORD + "\n");
        Path serverConfig = home.resolve("etc/io.troupe.server.cfg");
        Files.writeString(serverConfig, Files.readString(serverConfig)
                + "tls.keystore = etc/tls/server.p12\ntls.keystorePasswordFile = etc/tls/server.pass\n"
                + "tls.clientAuth = need\ntls.truststore = etc/tls/clients.p12\n"
                + "tls.truststorePasswordFile = etc/tls/clients.pass\n");
        Files.writeString(home.resolve("etc/io.troupe.tenant-bound.cfg"), "token = " + TOKEN + "\n"
                + "certificateSubject = cn=Client-One\n");

        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            SSLContext trusted = clientContext(one, home);
            Frame welcome = hello(trusted, port, TOKEN);
            assertEquals(FrameType.WELCOME, welcome.type(), welcome::text);

            Frame otherCertificate = hello(clientContext(two, home), port, TOKEN);
            assertEquals(ErrorCode.AUTH_FAILED.code(), otherCertificate.name(), otherCertificate::toString);
            Frame wrongToken = hello(trusted, port, "wrong-token-wrong-token-wrong-token");
            assertEquals(ErrorCode.AUTH_FAILED.code(), wrongToken.name(), wrongToken::toString);
            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }
        String file = Files.readString(home.resolve("etc/io.troupe.tenant-bound.cfg"), UTF_8);
        assertTrue(file.startsWith("tokenHash = pbkdf2-sha256$") && file.contains("certificateSubject = "), file);
    }

    /** HELLO as tenant bound over TLS with {@code context}'s client certificate; the answer. */
    private static Frame hello(SSLContext context, int port, String token) throws IOException {
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), (int) REPLY.toMillis());
            socket.setSoTimeout((int) REPLY.toMillis());
            socket.startHandshake();
            socket.getOutputStream().write(FrameEncoder.encode(Frame.hello(1, "bound", token)).array());
            socket.getOutputStream().flush();
            return read(socket.getInputStream());
        }
    }

    private static Frame read(InputStream in) throws IOException {
        FrameDecoder decoder = new FrameDecoder(1 << 16);
        ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
        while (true) {
            int n = in.read(buffer.array(), buffer.position(), buffer.remaining());
            if (n < 0) {
                throw new AssertionError("the server closed without answering the HELLO");
            }
            buffer.position(buffer.position() + n);
            buffer.flip();
            Frame frame = decoder.decode(buffer);
            buffer.compact();
            if (frame != null) {
                return frame;
            }
        }
    }

    /** A TLS 1.3 client context: {@code keystore}'s key, trusting the server certificate tls-init made. */
    private static SSLContext clientContext(Path keystore, Path home) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, PASSWORD.toCharArray());
        char[] trustPassword = Files.readString(home.resolve("etc/tls/trust.pass"), UTF_8).strip().toCharArray();
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(home.resolve("etc/tls/trust.p12"))) {
            trust.load(in, trustPassword);
        }
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
        return context;
    }

    /** A PKCS#12 keystore with one self-signed EC key for {@code CN=<cn>}. */
    private Path keystore(String cn) throws IOException, InterruptedException {
        Path file = dir.resolve(cn + ".p12");
        keytool("-genkeypair", "-alias", "key", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + cn,
                "-validity", "30", "-storetype", "PKCS12", "-keystore", file.toString(), "-storepass", PASSWORD,
                "-keypass", PASSWORD);
        return file;
    }

    /** Adds the certificate of {@code keystore} to the trust store {@code trust} under {@code alias}. */
    private void trust(Path keystore, String alias, Path trust) throws IOException, InterruptedException {
        Path pem = dir.resolve(alias + ".pem");
        keytool("-exportcert", "-rfc", "-alias", "key", "-keystore", keystore.toString(), "-storepass", PASSWORD,
                "-file", pem.toString());
        keytool("-importcert", "-noprompt", "-alias", alias, "-file", pem.toString(), "-storetype", "PKCS12",
                "-keystore", trust.toString(), "-storepass", PASSWORD);
    }

    private void keytool(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(JAVA_HOME.resolve("bin/keytool").toString());
        command.addAll(List.of(arguments));
        ToolRun made = run(command);
        assertEquals(0, made.exit, "keytool " + String.join(" ", arguments) + ": " + made.output);
    }

    /** What one process printed (both streams) and returned. */
    private record ToolRun(int exit, String output) {
    }

    private ToolRun run(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        builder.environment().remove("JAVA_OPTS");
        builder.environment().put("JAVA_HOME", JAVA_HOME.toString());
        Path out = Files.createTempFile(dir, "run", ".out");
        Process process = builder.redirectOutput(out.toFile()).start();
        process.getOutputStream().close();
        if (!process.waitFor(TOOL.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within " + TOOL);
        }
        return new ToolRun(process.exitValue(), Files.readString(out, UTF_8));
    }
}
