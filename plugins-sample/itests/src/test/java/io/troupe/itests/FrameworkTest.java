package io.troupe.itests;

import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.ProbeBuilder;
import org.ops4j.pax.exam.TestProbeBuilder;

/**
 * What every in-framework test class shares: Pax Exam boots {@link TroupeFramework#configuration()}
 * (a subclass that needs more, such as a deploy folder, overrides {@link #configuration()} with its
 * own {@code @Configuration} method) and gives the probe a real name and version.
 *
 * <p><b>Threading:</b> Pax Exam calls both methods on JUnit's thread, outside the framework.
 */
public abstract class FrameworkTest {

    @Configuration
    public Option[] configuration() {
        return TroupeFramework.configuration();
    }

    @ProbeBuilder
    public TestProbeBuilder probe(TestProbeBuilder probe) {
        return TroupeFramework.probe(probe);
    }
}
