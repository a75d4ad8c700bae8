package io.troupe.api.state;

import java.time.Instant;
import java.util.Objects;

/**
 * One stored snapshot, as a {@link StateStore} lists it.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param key       where it is stored
 * @param bytes     the size of the encoded snapshot
 * @param writtenAt when it was last written
 */
public record StoredState(StateKey key, int bytes, Instant writtenAt) {

    public StoredState {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(writtenAt, "writtenAt");
    }
}
