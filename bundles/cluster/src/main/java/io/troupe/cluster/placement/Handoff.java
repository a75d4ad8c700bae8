package io.troupe.cluster.placement;

import java.time.Instant;
import java.util.Objects;

import io.troupe.api.cluster.Migration;

/**
 * The record an old owner leaves in {@code troupe.handoffs} when it has released a tenant, read and
 * removed by the new owner when it takes the tenant over: {@code fromUuid|pausedAtEpochMillis|CAUSE}.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param from     the member uuid of the old owner
 * @param pausedAt when the old owner paused the tenant
 * @param cause    why it moved
 */
public record Handoff(String from, Instant pausedAt, Migration.Cause cause) {

    public Handoff {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(pausedAt, "pausedAt");
        Objects.requireNonNull(cause, "cause");
    }

    /** The record's text. */
    public String encode() {
        return from + "|" + pausedAt.toEpochMilli() + "|" + cause.name();
    }

    /**
     * The record of {@code text}.
     *
     * @throws IllegalArgumentException when {@code text} is no handoff record
     */
    public static Handoff decode(String text) {
        String[] parts = text.split("\\|", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("not a handoff record (from|pausedAt|cause): '" + text + "'");
        }
        try {
            return new Handoff(parts[0], Instant.ofEpochMilli(Long.parseLong(parts[1])),
                    Migration.Cause.valueOf(parts[2]));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a handoff record (from|pausedAt|cause): '" + text + "'", e);
        }
    }
}
