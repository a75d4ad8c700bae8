package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.helpers.BasicMDCAdapter;

/**
 * The real SLF4J {@link LoggerFactory} on the test class path finds our provider through
 * {@code META-INF/services} instead of falling back to the no-op logger.
 */
class Slf4jBindingTest {

    @Test
    void loggerFactoryBindsToTheTroupeProvider() {
        assertInstanceOf(TroupeLoggerFactory.class, LoggerFactory.getILoggerFactory());
        assertInstanceOf(TroupeLogger.class, LoggerFactory.getLogger(Slf4jBindingTest.class));
        assertEquals(Slf4jBindingTest.class.getName(),
                LoggerFactory.getLogger(Slf4jBindingTest.class).getName());
    }

    @Test
    void mdcUsesTheAdapterOfTheBoundProvider() {
        TroupeLogging logging = TroupeLogging.of(LoggerFactory.getILoggerFactory());

        assertInstanceOf(BasicMDCAdapter.class, MDC.getMDCAdapter());
        assertSame(logging.mdc(), MDC.getMDCAdapter());
    }

    @Test
    void withoutTroupeHomeUnitTestsLogToTheConsoleOnly() {
        assumeTrue(System.getProperty(LogSettings.HOME_PROPERTY) == null);

        TroupeLogging logging = TroupeLogging.of(LoggerFactory.getILoggerFactory());

        assertEquals(Optional.empty(), logging.logFile());
        LoggerFactory.getLogger(Slf4jBindingTest.class).info("bound to {}", logging);
    }
}
