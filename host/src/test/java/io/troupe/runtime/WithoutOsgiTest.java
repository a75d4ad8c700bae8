package io.troupe.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The embedded runtime needs no OSGi: in a class loader that sees only the dependencies an application gets
 * with {@code io.troupe:troupe-host} ({@link IsolatedClassPath}), and no {@code org.osgi.framework}, a runtime
 * starts with Troupe's own SLF4J provider, answers through a handler registered in code, and closes.
 */
class WithoutOsgiTest {

    @Test
    void aRuntimeStartsAnswersAndClosesOnAClassPathWithoutOsgi() throws Exception {
        try (IsolatedClassPath classPath = new IsolatedClassPath()) {
            assertThrows(ClassNotFoundException.class, () -> classPath.type("org.osgi.framework.BundleContext"));
            try (AutoCloseable runtime = classPath.start("embedded-without-osgi", "greet",
                    (cp, ctx, message) -> cp.reply(ctx, "plain " + cp.text(message)))) {
                assertEquals("plain ada", classPath.ask(runtime, "acme", "greet", "ada"));
                assertEquals("io.troupe.host.log.TroupeLoggerFactory", classPath.slf4jFactory(),
                        "SLF4J is bound to Troupe's provider in that loader");
            }
        }
    }
}
