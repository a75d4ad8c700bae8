package io.troupe.reliability.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import io.troupe.api.ErrorCode;
import io.troupe.api.Failure;
import io.troupe.host.state.StateCodec;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameEncoder;

/**
 * Writes the seed inputs of the fuzz targets (the {@code seed-*} files under
 * {@code src/test/resources/<package>/<Class>Inputs/<method>/}): valid frames, cfg files as the distribution and
 * {@code troupe:tenant-add} write them, states of every kind the codec stores, and plugin manifests. Run once
 * after a format changes, from {@code reliability/fuzz}:
 * <pre>
 *   mvn -B -q -o test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 *   java -cp target/test-classes:$(cat target/cp.txt) io.troupe.reliability.fuzz.SeedInputs src/test/resources
 * </pre>
 * Inputs of targets that take a {@code FuzzedDataProvider} end with a few bytes the provider reads its numbers
 * from (it reads them from the end); the text or frame comes first.
 *
 * <p><b>Threading:</b> a command-line program; one thread.
 */
public final class SeedInputs {

    private static final byte[] CHOICES = {0, 0, 0, 0, 0};

    private final Path resources;

    private SeedInputs(Path resources) {
        this.resources = resources;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: SeedInputs <src/test/resources directory>");
        }
        SeedInputs seeds = new SeedInputs(Path.of(args[0]));
        seeds.frames();
        seeds.tenantFiles();
        seeds.serverFiles();
        seeds.states();
        seeds.manifests();
    }

    private void frames() throws IOException {
        Path dir = inputs("io/troupe/protocol/FrameDecoderFuzzTest", "decodesAFrameOrRefusesWithAFrameException");
        List<Frame> frames = List.of(Frame.hello(1, "acme", "a-token-of-32-characters-at-least"),
                Frame.welcome(1, "session-1"), Frame.send("counter.add", "5".getBytes(StandardCharsets.UTF_8)),
                Frame.request(7, "echo", "héllo".getBytes(StandardCharsets.UTF_8)),
                Frame.reply(7, "echo", new byte[] {0, 1, 2}), Frame.ping(9, new byte[0]), Frame.pong(9, new byte[0]),
                Frame.bye());

        for (Frame frame : frames) {
            ByteBuffer encoded = FrameEncoder.encode(frame);
            byte[] bytes = new byte[encoded.remaining()];
            encoded.get(bytes);
            for (byte mode = 0; mode < 3; mode++) {
                write(dir, "seed-" + frame.type().name().toLowerCase() + "-" + mode,
                        concat(bytes, new byte[] {0, 0x0f, (byte) 0xff, (byte) 0xff, mode}));
            }

        }
        ByteBuffer two = ByteBuffer.allocate(FrameEncoder.encodedSize(frames.get(2)) * 2);
        FrameEncoder.encode(frames.get(2), two);
        FrameEncoder.encode(frames.get(2), two);
        write(dir, "seed-two-frames", concat(two.array(), new byte[] {1, 0x0f, (byte) 0xff, (byte) 0xff, 0}));
    }

    private void tenantFiles() throws IOException {
        Path dir = inputs("io/troupe/server/tenant/TenantConfigFuzzTest", "readsATenantFileOrNamesWhatIsWrong");
        String hash = "pbkdf2-sha256$600000$3q2+7wAAAAAAAAAAAAAAAA==$"
                + "gSx1Qw9yvLkq3YH0yS1Xr5XkZr7C4bD6Vv0bq3y8YcQ=";
        cfg(dir, "seed-token-hash", "tenant = acme\ntokenHash = " + hash + "\n");
        cfg(dir, "seed-limits", "# a tenant with limits\ntenant = globex\ntokenHash = " + hash
                + "\nmaxConnections = 50\nmaxRequestsPerSecond = 2000\nmaxBytesPerSecond = 1048576\n"
                + "maxFrameBytes = 65536\nweight = 3\nmaxActors = 1000\nmaxQueuedMessages = 100000\n"
                + "maxPendingOutputBytes = 8388608\nhandlers = echo, counter.add\n");
        cfg(dir, "seed-certificate", "tenant = initech\ncertificateSubject = CN=initech, O=Initech, C=US\n");
        cfg(dir, "seed-file-name", "felix.fileinstall.filename = file:/opt/troupe/etc/io.troupe.tenant-acme.cfg\n"
                + "tokenHash = " + hash + "\n");
        cfg(dir, "seed-bad-values", "tenant = a b\nmaxConnections = -1\nweight = many\nunknownKey = 1\n");
    }

    private void serverFiles() throws IOException {
        Path dir = inputs("io/troupe/server/ServerSettingsFuzzTest",
                "readsTheServerFileKeepingThePreviousValueOfEveryBadKey");
        cfg(dir, "seed-distribution", "host = 127.0.0.1\nport = 7878\nmaxFrameBytes = 1048576\n"
                + "idleTimeoutSeconds = 60\nauthTimeoutSeconds = 5\nrequestTimeoutSeconds = 30\n"
                + "slowConsumerBytes = 16777216\n");
        cfg(dir, "seed-tls", "host = 0.0.0.0\nport = 7443\nallowPlaintext = false\ntls.keystore = etc/server.p12\n"
                + "tls.keystorePassword = changeit\ntls.protocols = TLSv1.3, TLSv1.2\ntls.clientAuth = want\n"
                + "tls.truststore = etc/clients.p12\nioThreads = 2\nmaxConnections = 10000\n"
                + "maxConnectionsPerAddress = 100\nmaxUnauthenticatedConnections = 500\n"
                + "reservedFileDescriptors = 64\n");
        cfg(dir, "seed-bad-values", "host = a host\nport = 70000\nioThreads = -3\ntls.protocols = SSLv2\n"
                + "tls.clientAuth = sometimes\n");
    }

    private void states() throws IOException {
        Path dir = inputs("io/troupe/host/state/StateCodecFuzzTest", "decodesAStateOrRefusesItAsUnreadable");
        StateCodec codec = new StateCodec();
        Map<String, Object> counter = new LinkedHashMap<>();
        counter.put("total", 1234L);
        counter.put("updates", 17);
        List<Object> mixed = new ArrayList<>();
        mixed.add(null);
        mixed.add(true);
        mixed.add((byte) 7);
        mixed.add((short) -300);
        mixed.add(Float.NaN);
        mixed.add(-0.0d);
        mixed.add('é');
        mixed.add("chat: héllo \uD83D\uDE00");
        mixed.add(new BigInteger("-123456789012345678901234567890"));
        mixed.add(new BigDecimal("3.14159"));
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("long", 1234L);
        values.put("counter", counter);
        values.put("mixed", mixed);
        values.put("bytes", new byte[] {1, 2, 3});
        values.put("ints", new int[] {-1, 0, Integer.MAX_VALUE});
        values.put("doubles", new double[] {1.5, Double.NEGATIVE_INFINITY});
        values.put("chars", new char[] {'a', '\uFFFF'});
        values.put("strings", new String[] {"a", null});
        values.put("set", Set.of("x"));
        values.put("optional", Optional.of(Optional.empty()));
        values.put("time", List.of(Instant.ofEpochSecond(1_700_000_000L, 5), Duration.ofMillis(-1500)));
        values.put("uuid", new UUID(0x0123456789abcdefL, -1L));
        values.put("enum", DayOfWeek.FRIDAY);
        values.put("failure", new Failure(ErrorCode.HANDLER_TIMEOUT, "no reply in 5 s"));
        for (Map.Entry<String, Object> entry : values.entrySet()) {
            write(dir, "seed-" + entry.getKey(), codec.encode(entry.getValue(), "seed"));
        }
        write(dir, "seed-all", codec.encode(values, "seed"));
    }

    private void manifests() throws IOException {
        Path dir = inputs("io/troupe/host/deploy/PluginManifestFuzzTest", "readsAPluginJarOrSaysWhyNot");
        manifest(dir, "seed-plugin", "Manifest-Version: 1.0\r\nBundle-ManifestVersion: 2\r\n"
                + "Bundle-SymbolicName: io.troupe.sample.counter;singleton:=true\r\nBundle-Version: 1.0.0\r\n"
                + "Troupe-Tenants: acme, globex\r\n\r\n");
        manifest(dir, "seed-no-version", "Manifest-Version: 1.0\nBundle-SymbolicName: io.troupe.sample.echo\n"
                + "Troupe-Tenants: ,, acme ,\n\n");
        manifest(dir, "seed-continued", "Manifest-Version: 1.0\nBundle-SymbolicName: io.troupe.sample.\n"
                + " wordcount\nBundle-Version: 2.0.0.SNAPSHOT\nTroupe-Tenants: \n\n");
        manifest(dir, "seed-not-a-bundle", "Manifest-Version: 1.0\nCreated-By: 17 (Debian)\n\n");
    }

    private void cfg(Path dir, String name, String text) throws IOException {
        write(dir, name, concat(text.getBytes(StandardCharsets.ISO_8859_1), CHOICES));
    }

    private void manifest(Path dir, String name, String text) throws IOException {
        write(dir, name, concat(text.getBytes(StandardCharsets.UTF_8), CHOICES));
    }

    private Path inputs(String testClass, String method) {
        Path dir = resources.resolve(testClass + "Inputs").resolve(method);
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path dir, String name, byte[] bytes) throws IOException {
        Files.write(dir.resolve(name), bytes);
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = new byte[first.length + second.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
