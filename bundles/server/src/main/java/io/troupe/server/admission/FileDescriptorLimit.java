package io.troupe.server.admission;

import java.lang.management.ManagementFactory;
import java.util.OptionalLong;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The process's limit on open file descriptors ({@code ulimit -n}), as the JVM reports it:
 * {@code com.sun.management.UnixOperatingSystemMXBean#getMaxFileDescriptorCount}, read as the attribute
 * {@value #ATTRIBUTE} of the platform MBean {@value #OPERATING_SYSTEM} so that this bundle imports no
 * {@code com.sun} package. Empty where the JVM does not know it (Windows, other JVMs).
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class FileDescriptorLimit {

    static final String OPERATING_SYSTEM = "java.lang:type=OperatingSystem";
    static final String ATTRIBUTE = "MaxFileDescriptorCount";

    private FileDescriptorLimit() {
    }

    /** The limit, or empty when unknown. */
    public static OptionalLong ofThisProcess() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            Object value = server.getAttribute(new ObjectName(OPERATING_SYSTEM), ATTRIBUTE);
            if (value instanceof Number number && number.longValue() > 0) {
                return OptionalLong.of(number.longValue());
            }
            return OptionalLong.empty();
        } catch (JMException | SecurityException e) {
            return OptionalLong.empty();
        }
    }
}
