package io.troupe.compiletest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;

import org.junit.jupiter.api.Test;

import io.troupe.api.admin.TenantSessions;

/**
 * Compile-only test of the exported package {@code io.troupe.api.admin} (1.0.0): every public signature of
 * {@link TenantSessions} used with its declared types, from outside the package, as the web console uses it.
 *
 * <p>Its value is that it compiles (see {@link ApiCompileTest} for why it exists beside bnd's baseline check);
 * the single test only lets the runner count the class. When the package gains a public signature, add a use
 * of it here.
 *
 * <p><b>Threading:</b> nothing here runs.
 */
class ApiAdminCompileTest {

    @Test
    void compilesAgainstEveryPublicSignatureOfTheAdminApi() {
        // Nothing to run: the class compiled. This names the package it covers, for the report.
        assertEquals("io.troupe.api.admin", TenantSessions.class.getPackageName());
    }

    static int useTenantSessions(TenantSessions sessions) {
        String reason = TenantSessions.DISCONNECTED;
        Set<String> tenants = sessions.tenants();
        return reason.length() + tenants.size() + sessions.disconnect("acme");
    }
}
