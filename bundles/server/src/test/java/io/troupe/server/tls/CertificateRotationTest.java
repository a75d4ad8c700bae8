package io.troupe.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.testsupport.Await;

/**
 * Live rotation over real files: replacing the keystore reaches the next handshake; a corrupt
 * replacement keeps the old certificate.
 *
 * <p><b>Threading:</b> JUnit's thread and the rotation's own; the test waits on the rotation's counters
 * with a bounded timeout.
 */
class CertificateRotationTest {

    private static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.1", 40001);

    @TempDir
    Path dir;
    private CertificateRotation rotation;

    @AfterEach
    void stop() {
        if (rotation != null) {
            rotation.close();
        }
    }

    @Test
    void aReplacedKeystoreIsServedToTheNextHandshakeAndACorruptOneKeepsTheOld() throws Exception {
        Path keystore = KeyTool.keystore(dir.resolve("server.p12"), "first");
        Path trust = dir.resolve("trust.p12");
        KeyTool.truststore(keystore, trust);
        TlsSettings settings = new TlsSettings(keystore.toString(), KeyTool.PASSWORD, "", List.of("TLSv1.3"),
                ClientAuth.NONE, "", "", "");
        ServerTlsEngines engines = new ServerTlsEngines(ServerTlsContext.build(settings, null));
        rotation = new CertificateRotation(settings, null, engines::swap, Duration.ofMillis(50));
        assertEquals("CN=first", handshake(engines, trust));

        Path next = KeyTool.keystore(dir.resolve("next.p12"), "second");
        Path nextTrust = KeyTool.truststore(next, dir.resolve("next-trust.p12"));
        Files.move(next, keystore, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Await.until("the new keystore is loaded", () -> rotation.reloads() == 1,
                () -> "reloads " + rotation.reloads() + ", failures " + rotation.failures());
        assertEquals("CN=second", handshake(engines, nextTrust));

        Files.write(keystore, new byte[] {0x30, 0x01, 0x02});
        Await.until("the corrupt keystore is refused", () -> rotation.failures() == 1,
                () -> "reloads " + rotation.reloads() + ", failures " + rotation.failures());
        assertEquals("CN=second", handshake(engines, nextTrust), "the old context stays");
        assertEquals(1, rotation.reloads());
    }

    @Test
    void aKeystoreThatCouldNotBeLoadedIsHandedOverOnceItIsFixed() throws Exception {
        Path keystore = dir.resolve("late.p12");
        Path passwordFile = Files.writeString(dir.resolve("late.pass"), "not-yet\n");
        TlsSettings settings = new TlsSettings(keystore.toString(), "", passwordFile.toString(), List.of("TLSv1.3"),
                ClientAuth.NONE, "", "", "");
        AtomicReference<ServerTlsContext> built = new AtomicReference<>();
        rotation = new CertificateRotation(settings, null, built::set, Duration.ofMillis(50));

        Path made = KeyTool.keystore(dir.resolve("made.p12"), "late");
        Files.move(made, keystore, StandardCopyOption.ATOMIC_MOVE);
        Await.until("the missing keystore, now there with the wrong password, is refused",
                () -> rotation.failures() >= 1, () -> "failures " + rotation.failures());
        Files.writeString(passwordFile, KeyTool.PASSWORD + "\n");
        Await.until("the fixed password is loaded", () -> built.get() != null,
                () -> "reloads " + rotation.reloads() + ", failures " + rotation.failures());
        assertEquals("CN=late", built.get().certificate().getSubjectX500Principal().getName());
    }

    private static String handshake(ServerTlsEngines engines, Path trust) throws Exception {
        EnginePair pair = new EnginePair(ServerTlsContextTest.client(trust, null), engines.newEngine(PEER));
        return pair.handshake().getSubjectX500Principal().getName();
    }
}
