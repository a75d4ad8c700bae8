package io.troupe.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

import org.h2.store.fs.FilePath;
import org.h2.store.fs.FilePathWrapper;

/**
 * An H2 file system, {@code faulty:<path>}, over the real disk whose writes and syncs fail while
 * {@link #failing} is set: a disk that is full, or gone. MVStore itself runs unchanged above it.
 *
 * <p><b>Threading:</b> {@link #failing} is volatile; the channels are used as MVStore uses file channels.
 */
public final class FaultyFilePath extends FilePathWrapper {

    /** Whether writes and syncs fail now. */
    static volatile boolean failing;

    private static final FaultyFilePath PROTOTYPE = new FaultyFilePath();

    static {
        FilePath.register(PROTOTYPE);
    }

    /** Used by H2 to make paths of this scheme. */
    public FaultyFilePath() {
    }

    /** The H2 file name of {@code path} on this file system (registering it once). */
    static String fileName(java.nio.file.Path path) {
        return PROTOTYPE.getScheme() + ":" + path.toAbsolutePath();
    }

    @Override
    public String getScheme() {
        return "faulty";
    }

    @Override
    public FileChannel open(String mode) throws IOException {
        return new FaultyChannel(getBase().open(mode));
    }

    private static void maybeFail(String what) throws IOException {
        if (failing) {
            throw new IOException("No space left on device (injected, " + what + ")");
        }
    }

    /** A file channel that delegates, except that writes and syncs fail while {@link #failing}. */
    private static final class FaultyChannel extends FileChannel {
        private final FileChannel base;

        FaultyChannel(FileChannel base) {
            this.base = base;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return base.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return base.read(dsts, offset, length);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            maybeFail("write");
            return base.write(src);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            maybeFail("write");
            return base.write(srcs, offset, length);
        }

        @Override
        public long position() throws IOException {
            return base.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            base.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return base.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            maybeFail("truncate");
            base.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            maybeFail("sync");
            base.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return base.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            maybeFail("write");
            return base.transferFrom(src, position, count);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return base.read(dst, position);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            maybeFail("write");
            return base.write(src, position);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            return base.map(mode, position, size);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return base.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return base.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            base.close();
        }
    }
}
