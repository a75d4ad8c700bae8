package io.troupe.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.troupe.testsupport.KeyTool;

/**
 * PKCS#12 stores made with the JDK's {@code keytool}, as an operator makes them: a self-signed key and
 * certificate, and a trust store holding that certificate.
 *
 * <p><b>Threading:</b> stateless; each call runs one keytool process (at most 60 s).
 */
public final class TestCertificates {

    public static final String PASSWORD = "changeit-456";

    private TestCertificates() {
    }

    /** A keystore with one EC P-256 key for {@code cn}, with {@code san} (keytool's SAN syntax), 30 days. */
    public static Path keystore(Path file, String cn, String san) throws IOException, InterruptedException {
        KeyTool.run(List.of("-genkeypair", "-alias", "key", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=" + cn, "-ext", "SAN=" + san, "-validity", "30", "-storetype", "PKCS12", "-keystore",
                file.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD));
        return file;
    }

    /** A PKCS#12 trust store holding the certificate of {@code keystore}'s key. */
    public static Path truststore(Path keystore, Path file) throws IOException, InterruptedException {
        Path pem = Files.createTempFile(file.getParent(), "cert", ".pem");
        KeyTool.run(List.of("-exportcert", "-rfc", "-alias", "key", "-keystore", keystore.toString(), "-storepass",
                PASSWORD, "-file", pem.toString()));
        KeyTool.run(List.of("-importcert", "-noprompt", "-alias", "trusted", "-file", pem.toString(), "-storetype",
                "PKCS12", "-keystore", file.toString(), "-storepass", PASSWORD));
        return file;
    }
}
