package io.troupe.host.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A file's size and modification time: when two polls see the same stamp, the file is no longer
 * being written.
 *
 * @param size     bytes
 * @param modified modification time in milliseconds
 */
record FileStamp(long size, long modified) {

    /** The stamp of {@code path}, or {@code null} if it is gone. */
    static FileStamp of(Path path) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
            return new FileStamp(attributes.size(), attributes.lastModifiedTime().toMillis());
        } catch (IOException e) {
            return null;
        }
    }
}
