package io.troupe.benchmarks.micro;

import java.nio.ByteBuffer;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;

/**
 * Wire protocol v1 frames through {@link FrameEncoder} and {@link FrameDecoder}, CRC-32C included:
 * a REQUEST named {@value #NAME} with a {@link #payloadBytes}-byte payload of random bytes.
 *
 * <ul>
 * <li>{@code encode}: into a reused heap buffer, as a connection's write buffer is reused;</li>
 * <li>{@code decode}: from a buffer holding one encoded frame, checking length, CRC, version and
 *     structure, and copying the payload into the new {@link Frame}, as the server does per request.</li>
 * </ul>
 *
 * Ops/s is frames per second; bytes per second is that times {@link #frameBytes(int)} (the
 * {@code MicroSuite} prints both).
 *
 * <p>Threading: one benchmark thread; every state is the thread's own.
 */
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Threads(1)
public class CodecBenchmark {

    static final String NAME = "echo";

    @Param({"64", "4096"})
    public int payloadBytes;

    private Frame frame;
    private ByteBuffer encodeBuffer;
    private ByteBuffer encoded;
    /** The same bytes in a direct buffer, where an IO loop's reads land. */
    private ByteBuffer encodedDirect;
    private FrameDecoder decoder;

    @Setup(Level.Trial)
    public void setUp() {
        byte[] payload = new byte[payloadBytes];
        ThreadLocalRandom.current().nextBytes(payload);
        frame = Frame.request(42, NAME, payload);
        encodeBuffer = ByteBuffer.allocate(FrameEncoder.encodedSize(frame));
        encoded = FrameEncoder.encode(frame);
        encodedDirect = ByteBuffer.allocateDirect(encoded.remaining()).put(encoded.duplicate()).flip();
        decoder = new FrameDecoder();
        if (!frame.equals(decoder.decode(encoded.duplicate()))
                || !frame.equals(decoder.decode(encodedDirect.duplicate()))) {
            throw new IllegalStateException("the frame does not survive the round trip");
        }
    }

    /** The bytes one frame of {@code payloadBytes} takes on the wire, length field included. */
    static int frameBytes(int payloadBytes) {
        return FrameEncoder.encodedSize(Frame.request(42, NAME, new byte[payloadBytes]));
    }

    @Benchmark
    public ByteBuffer encode() {
        ByteBuffer out = encodeBuffer.clear();
        FrameEncoder.encode(frame, out);
        return out;
    }

    @Benchmark
    public Frame decode() {
        encoded.position(0);
        return decoder.decode(encoded);
    }

    /** {@link #decode()} from a direct buffer, as the server's IO loops decode what they read. */
    @Benchmark
    public Frame decodeDirect() {
        encodedDirect.position(0);
        return decoder.decode(encodedDirect);
    }
}
