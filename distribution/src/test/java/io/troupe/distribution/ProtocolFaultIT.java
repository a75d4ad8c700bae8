package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;

/**
 * A malformed frame after requests, in the built distribution over a real socket: the server answers
 * every request it accepted before the bad frame, then sends the fault's ERROR, then closes; nothing
 * sent after the bad frame runs. {@code burn} (a handler that answers after keeping its worker busy
 * for the microseconds asked) makes the reply come well after the bad frame has arrived.
 *
 * <p><b>Threading:</b> JUnit's thread; one Troupe process for the class, whose output
 * {@link TroupeProcess}'s threads read.
 */
class ProtocolFaultIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration LOADED = Duration.ofSeconds(15);
    private static final Duration REPLY = Duration.ofSeconds(10);
    private static final Duration STOP = Duration.ofSeconds(10);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    /** How long burn keeps its worker busy: the bad frame is read long before the reply exists. */
    private static final String BURN_MICROS = "400000";

    @TempDir
    static Path dir;

    private static TroupeProcess troupe;
    private static TestTenants tenants;

    @BeforeAll
    static void startTroupe() throws Exception {
        int port = TestInstallation.freePort();
        Path home = TestInstallation.copy(dir, port);
        Files.copy(Path.of(System.getProperty("troupe.burnPlugin")), home.resolve("deploy/burn.jar"));
        troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME);
        troupe.awaitLineStartingWith("Troupe ready", STARTUP);
        tenants = new TestTenants(home, port);
        tenants.write("faulty");
    }

    @AfterAll
    static void stopTroupe() throws Exception {
        if (troupe != null) {
            try {
                assertEquals(0, troupe.terminate(STOP), troupe::transcript);
            } finally {
                troupe.close();
            }
        }
    }

    @Test
    void aCorruptFrameAfterASlowRequestIsAnsweredAfterItsReplyThenTheConnectionCloses() throws Exception {
        try (WireClient client = tenants.served("faulty", LOADED)) {
            long start = System.nanoTime();
            ByteBuffer pipeline = ByteBuffer.allocate(4096);
            FrameEncoder.encode(WireClient.request(2, "burn", BURN_MICROS), pipeline);
            pipeline.put(corrupt(WireClient.request(3, "echo", "corrupt")));
            FrameEncoder.encode(WireClient.request(4, "echo", "after the bad frame"), pipeline);
            client.sendRaw(pipeline.flip());

            Frame reply = client.expect(REPLY);
            assertEquals(FrameType.REPLY, reply.type(), () -> reply + " " + reply.text());
            assertEquals(2, reply.corrId());
            assertEquals(BURN_MICROS, reply.text());
            assertTrue(System.nanoTime() - start >= Long.parseLong(BURN_MICROS) * 1000,
                    "the reply took the burn's time: the ERROR waited for it");
            Frame error = client.expect(REPLY);
            assertEquals(FrameType.ERROR, error.type(), () -> error + " " + error.text());
            assertEquals(ErrorCode.FRAME_CRC.code(), error.name(), error::text);
            assertEquals(Optional.empty(), client.next(REPLY), "closed after the ERROR; request 4 never ran");
        }
    }

    @Test
    void aCorruptFrameWithNothingInFlightIsAnsweredAtOnce() throws Exception {
        try (WireClient client = tenants.served("faulty", LOADED)) {
            client.sendRaw(ByteBuffer.wrap(corrupt(WireClient.request(2, "echo", "corrupt"))));
            Frame error = client.expect(REPLY);
            assertEquals(ErrorCode.FRAME_CRC.code(), error.name(), error::text);
            assertEquals(Optional.empty(), client.next(REPLY));
        }
    }

    /** {@code frame} encoded, its last byte (part of its checksum) flipped. */
    private static byte[] corrupt(Frame frame) {
        byte[] bytes = FrameEncoder.encode(frame).array();
        bytes[bytes.length - 1] ^= 1;
        return bytes;
    }
}
