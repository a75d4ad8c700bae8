package io.troupe.compiletest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.Marker;

import io.troupe.api.log.Fatal;

/**
 * Compile-only test of the exported package {@code io.troupe.api.log} (1.0.0): {@link Fatal}'s constants
 * and its one method are used with their declared types, from outside the package, as a plugin uses
 * them with its SLF4J logger.
 *
 * <p>Its value is that it compiles (see {@link ApiCompileTest} for why it exists beside bnd's baseline
 * check); the single test only lets the runner count the class. When the package gains a public
 * signature, add a use of it here.
 *
 * <p><b>Threading:</b> nothing here runs.
 */
class ApiLogCompileTest {

    @Test
    void compilesAgainstEveryPublicSignatureOfTheLogApi() {
        // Nothing to run: the class compiled. This names the package it covers, for the report.
        assertEquals("io.troupe.api.log", Fatal.class.getPackageName());
    }

    static void useFatal(Logger log, Throwable cause) {
        String name = Fatal.MARKER_NAME;
        Marker marker = Fatal.MARKER;
        Fatal.fatal(log, "cannot go on: {}", name, cause);
        Fatal.fatal(log, "cannot go on");
        log.error(marker, "the marker works with SLF4J alone");
    }
}
