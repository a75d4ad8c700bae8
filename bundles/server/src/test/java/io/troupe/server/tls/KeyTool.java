package io.troupe.server.tls;

import static io.troupe.testsupport.KeyTool.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes real PKCS#12 (and JKS) stores with the JDK's {@code keytool}, as an operator would.
 *
 * <p><b>Threading:</b> stateless; each call runs one keytool process and waits for it (at most 60 s).
 */
final class KeyTool {

    static final String PASSWORD = "changeit-123";

    private KeyTool() {
    }

    /** A keystore with one EC key for {@code cn}, SAN localhost and 127.0.0.1, valid from now for 30 days. */
    static Path keystore(Path file, String cn) throws IOException, InterruptedException {
        return keystore(file, cn, "PKCS12", null, 30);
    }

    /**
     * A keystore with one EC P-256 key.
     *
     * @param startDate keytool's {@code -startdate} (e.g. {@code -10d}), or {@code null} for now
     */
    static Path keystore(Path file, String cn, String type, String startDate, int validityDays)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("-genkeypair", "-alias", "server", "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=" + cn, "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                "-validity", String.valueOf(validityDays), "-storetype", type, "-keystore", file.toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD));
        if (startDate != null) {
            command.add("-startdate");
            command.add(startDate);
        }
        run(command);
        return file;
    }

    /** A trust store (PKCS#12) holding the certificate of the key in {@code keystore}. */
    static Path truststore(Path keystore, Path file) throws IOException, InterruptedException {
        Path pem = Files.createTempFile(file.getParent(), "cert", ".pem");
        run(List.of("-exportcert", "-rfc", "-alias", "server", "-keystore", keystore.toString(), "-storepass",
                PASSWORD, "-file", pem.toString()));
        run(List.of("-importcert", "-noprompt", "-alias", "trusted", "-file", pem.toString(), "-storetype",
                "PKCS12", "-keystore", file.toString(), "-storepass", PASSWORD));
        return file;
    }
}
