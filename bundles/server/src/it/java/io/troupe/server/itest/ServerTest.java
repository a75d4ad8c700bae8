package io.troupe.server.itest;

import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.ProbeBuilder;
import org.ops4j.pax.exam.TestProbeBuilder;

/**
 * What every server test class shares: Pax Exam boots {@link ServerFramework#configuration()} and
 * gives the probe the name and imports {@link ServerFramework#probe} sets.
 *
 * <p><b>Threading:</b> Pax Exam calls both methods on JUnit's thread, outside the framework.
 */
public abstract class ServerTest {

    @Configuration
    public Option[] configuration() {
        return ServerFramework.configuration();
    }

    @ProbeBuilder
    public TestProbeBuilder probe(TestProbeBuilder probe) {
        return ServerFramework.probe(probe);
    }
}
