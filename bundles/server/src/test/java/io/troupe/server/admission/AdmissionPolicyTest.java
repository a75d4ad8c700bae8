package io.troupe.server.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.Locale;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import io.troupe.api.net.AdmissionLimits;

/**
 * The admission defaults derived from the file-descriptor limit, and configured values.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class AdmissionPolicyTest {

    @Test
    void defaultsAreDerivedFromTheFileLimit() {
        AdmissionPolicy policy = AdmissionPolicy.of(OptionalLong.of(1024), 0, 0, 0, 0);
        assertEquals(128, policy.reserved(), "an eighth of 1024");
        assertEquals(new AdmissionLimits(896, 112, 224), policy.limits());
        assertEquals("at most 896 connections, 112 per address, 224 unauthenticated (file-descriptor limit 1024, "
                + "128 reserved for the server)", policy.describe());
        assertNull(policy.overcommitment());
    }

    @Test
    void aSmallLimitKeepsAtLeast64ForTheServerAnd16PerAddress() {
        AdmissionPolicy policy = AdmissionPolicy.of(OptionalLong.of(256), 0, 0, 0, 0);
        assertEquals(64, policy.reserved());
        assertEquals(new AdmissionLimits(192, 24, 48), policy.limits());
        AdmissionPolicy tiny = AdmissionPolicy.of(OptionalLong.of(100), 0, 0, 0, 0);
        assertEquals(new AdmissionLimits(36, 16, 16), tiny.limits());
    }

    @Test
    void anUnknownLimitIsAssumedTo4096() {
        AdmissionPolicy policy = AdmissionPolicy.of(OptionalLong.empty(), 0, 0, 0, 0);
        assertEquals(new AdmissionLimits(3584, 448, 896), policy.limits());
        assertTrue(policy.describe().contains("file-descriptor limit unknown, 4096 assumed"), policy.describe());
    }

    @Test
    void configuredValuesWinAndAreCappedByMaxConnections() {
        AdmissionPolicy policy = AdmissionPolicy.of(OptionalLong.of(20000), 100, 500, 30, 1000);
        assertEquals(1000, policy.reserved());
        assertEquals(new AdmissionLimits(100, 100, 30), policy.limits());
    }

    @Test
    void aConfiguredMaxConnectionsIntoTheReserveIsReported() {
        AdmissionPolicy policy = AdmissionPolicy.of(OptionalLong.of(1024), 1000, 0, 0, 0);
        assertTrue(policy.overcommitment().startsWith("maxConnections 1000 is more than the file-descriptor limit "
                + "1024 less the 128 reserved"), policy.overcommitment());
    }

    @Test
    void thisProcessHasAKnownLimitOnUnix() {
        assumeFalse(System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("win"));
        OptionalLong limit = FileDescriptorLimit.ofThisProcess();
        assertTrue(limit.isPresent() && limit.getAsLong() > 0, limit::toString);
    }
}
