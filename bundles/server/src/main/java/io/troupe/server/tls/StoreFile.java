package io.troupe.server.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.ArrayList;
import java.util.List;

/**
 * One PKCS#12 store named by the configuration (the keystore or the trust store) with its password,
 * given in the configuration or in a file of its own: loads it with errors that name the key, the
 * file and the reason, and lists the files whose change means it must be loaded again.
 *
 * <p><b>Threading:</b> immutable; any thread. {@link #load()} reads files: never on an IO loop.
 *
 * @param key              the configuration key naming the store, e.g. {@code tls.keystore}
 * @param path             the store's file, resolved
 * @param password         the password given in the configuration (used when there is no password file)
 * @param passwordFileKey  the key naming the password file, e.g. {@code tls.keystorePasswordFile}
 * @param passwordFile     the password file, resolved, or {@code null}
 */
record StoreFile(String key, Path path, String password, String passwordFileKey, Path passwordFile) {

    private static final byte[] JKS_MAGIC = {(byte) 0xFE, (byte) 0xED, (byte) 0xFE, (byte) 0xED};
    private static final byte DER_SEQUENCE = 0x30;

    /**
     * The store named by {@code pathText}, relative paths resolved against {@code home}.
     *
     * @throws TlsConfigurationException when a path is not a path
     */
    static StoreFile of(String key, String pathText, String password, String passwordFileKey,
            String passwordFileText, Path home) throws TlsConfigurationException {
        Path path = resolve(key, pathText, home);
        Path passwordFile = passwordFileText.isBlank() ? null : resolve(passwordFileKey, passwordFileText, home);
        return new StoreFile(key, path, password, passwordFileKey, passwordFile);
    }

    private static Path resolve(String key, String text, Path home) throws TlsConfigurationException {
        try {
            Path path = Path.of(text.trim());
            return (path.isAbsolute() || home == null ? path : home.resolve(path)).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new TlsConfigurationException(key + " '" + text + "': not a path: " + e.getMessage(), e);
        }
    }

    /** The files whose content makes this store: the store and its password file. */
    List<Path> files() {
        List<Path> files = new ArrayList<>(2);
        files.add(path);
        if (passwordFile != null) {
            files.add(passwordFile);
        }
        return files;
    }

    /**
     * Reads and opens the store.
     *
     * @throws TlsConfigurationException naming the key, the file and the reason: missing, unreadable, not
     *                                   PKCS#12 (a JKS store is named as such), wrong password
     */
    KeyStore load() throws TlsConfigurationException {
        char[] secret = secret();
        byte[] bytes = read(key, path);
        if (startsWith(bytes, JKS_MAGIC)) {
            throw new TlsConfigurationException(describe() + ": a JKS keystore, not PKCS#12; convert it with "
                    + "keytool -importkeystore -srckeystore FILE -destkeystore FILE.p12 -deststoretype PKCS12");
        }
        if (bytes.length == 0 || bytes[0] != DER_SEQUENCE) {
            throw new TlsConfigurationException(describe() + ": not a PKCS#12 keystore (a PEM file? convert it "
                    + "with openssl pkcs12 -export, or create one with bin/troupe tls-init)");
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(new ByteArrayInputStream(bytes), secret);
            return store;
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw new TlsConfigurationException(describe() + ": wrong password (" + passwordSource() + ")", e);
            }
            throw new TlsConfigurationException(describe() + ": not a readable PKCS#12 keystore: " + e.getMessage(),
                    e);
        } catch (GeneralSecurityException e) {
            throw new TlsConfigurationException(describe() + ": cannot be opened: " + e, e);
        }
    }

    /** The password, from the password file when there is one. */
    char[] secret() throws TlsConfigurationException {
        if (passwordFile == null) {
            return password.toCharArray();
        }
        String text = new String(read(passwordFileKey, passwordFile), StandardCharsets.UTF_8);
        String first = text.lines().findFirst().orElse("").strip();
        if (first.isEmpty()) {
            throw new TlsConfigurationException(passwordFileKey + " " + passwordFile + ": empty (its first line is "
                    + "the password of " + key + " " + path + ")");
        }
        return first.toCharArray();
    }

    /** {@code key path}, for messages. */
    String describe() {
        return key + " " + path;
    }

    private String passwordSource() {
        return passwordFile != null ? passwordFileKey + " " + passwordFile
                : password.isEmpty() ? "no password was given" : key + "Password";
    }

    private static byte[] read(String key, Path file) throws TlsConfigurationException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new TlsConfigurationException(key + " " + file + ": no such file", e);
        } catch (AccessDeniedException e) {
            throw new TlsConfigurationException(key + " " + file + ": not readable by this process (permission "
                    + "denied)", e);
        } catch (IOException e) {
            throw new TlsConfigurationException(key + " " + file + ": cannot be read: " + e, e);
        }
    }

    @Override
    public String toString() {
        return "StoreFile[" + describe() + (passwordFile == null ? "" : ", " + passwordFileKey + " " + passwordFile)
                + "]";
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        if (bytes.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
