package io.troupe.ops.health;

import java.util.Objects;

/**
 * One check's outcome: {@code {"name": .., "status": "UP"|"DOWN", "detail": ..}} in the JSON body.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param name   what was checked: {@code framework}, {@code runtime}, {@code server}, {@code store},
 *               {@code cluster}
 * @param up     whether it passed
 * @param detail what was seen, for a person
 */
public record CheckResult(String name, boolean up, String detail) {

    public CheckResult {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(detail, "detail");
    }

    static CheckResult up(String name, String detail) {
        return new CheckResult(name, true, detail);
    }

    static CheckResult down(String name, String detail) {
        return new CheckResult(name, false, detail);
    }

    /** {@code UP} or {@code DOWN}. */
    public String status() {
        return up ? "UP" : "DOWN";
    }
}
