package io.troupe.ops.health;

import java.io.IOException;
import java.util.List;

import com.fasterxml.jackson.core.JsonGenerator;

/**
 * The answer of a health endpoint: UP when every check is, with each check's outcome.
 *
 * <pre>
 * {"status":"DOWN","checks":[{"name":"framework","status":"UP","detail":"start level 100 of 100; ..."},
 *                            {"name":"server","status":"DOWN","detail":"the message server listens nowhere"}]}
 * </pre>
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param checks the outcomes, in the order they ran
 */
public record HealthReport(List<CheckResult> checks) {

    public HealthReport {
        checks = List.copyOf(checks);
    }

    /** Whether every check passed. */
    public boolean up() {
        return checks.stream().allMatch(CheckResult::up);
    }

    /** {@code UP} or {@code DOWN}. */
    public String status() {
        return up() ? "UP" : "DOWN";
    }

    /** Writes the report as a JSON object. */
    public void write(JsonGenerator json) throws IOException {
        json.writeStartObject();
        json.writeStringField("status", status());
        json.writeArrayFieldStart("checks");
        for (CheckResult check : checks) {
            json.writeStartObject();
            json.writeStringField("name", check.name());
            json.writeStringField("status", check.status());
            json.writeStringField("detail", check.detail());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }
}
