package io.troupe.host;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * The host's runtime-tunable settings, PID {@value #PID} ({@code etc/io.troupe.host.cfg} in the
 * distribution): worker bounds, the monitor's thresholds and the sizing of actor pools, each with
 * its type, default, bounds and description. A change applies while Troupe runs
 * ({@link HostTuning}); a bad value is logged with the file, key and reason, and the key keeps its
 * previous value.
 *
 * <p>Each key was a framework property {@code troupe.<key>} before (etc/config.properties); such a
 * property is still read, at start, as the key's initial value and reported once as living here
 * now; a value in the PID overrides it. What must be known before the host starts stays a framework
 * property: {@link HostFrameworkProperties}.
 *
 * <p><b>Threading:</b> the instances are immutable views.
 */
@ObjectClassDefinition(name = "Troupe host", pid = HostConfiguration.PID,
        description = "The actor runtime's workers, monitor and actor pools. Applied while Troupe runs.")
public @interface HostConfiguration {

    /** The ConfigAdmin PID. */
    String PID = "io.troupe.host";

    @AttributeDefinition(name = "Workers", min = "0", max = "1024",
            description = "Worker threads running actors, the pool's least size; 0: one per core.")
    int workers() default 0;

    @AttributeDefinition(name = "Most workers", min = "0", max = "4096",
            description = "The monitor adds workers up to this many while some are stalled; 0: 4 per core. "
                    + "Below workers, it is raised to workers.")
    int workers_max() default 0;

    @AttributeDefinition(name = "Extra worker idle time", min = "1", max = "86400",
            description = "Seconds extra workers must be unneeded before they retire.")
    int workers_idleSeconds() default 30;

    @AttributeDefinition(name = "Worker spin", min = "0", max = "1000000",
            description = "Microseconds a worker out of work polls, yielding, before it sleeps; 0: never.")
    int workers_spinMicros() default 50;

    @AttributeDefinition(name = "Monitor period", min = "1", max = "60000",
            description = "Milliseconds between two looks of the monitor.")
    int monitor_periodMillis() default 250;

    @AttributeDefinition(name = "Stalled turn", min = "1", max = "3600000",
            description = "Milliseconds after which a running actor turn is reported with its stack.")
    int monitor_stallMillis() default 2000;

    @AttributeDefinition(name = "Stalled IO loop", min = "1", max = "3600000",
            description = "Milliseconds an IO loop may be away from its select before it is reported.")
    int monitor_loopStallMillis() default 100;

    @AttributeDefinition(name = "Summary period", min = "0", max = "86400",
            description = "Seconds between two summary lines in the log; 0: none.")
    int monitor_summarySeconds() default 60;

    @AttributeDefinition(name = "Actor pool pressure", min = "0", max = "1000000",
            description = "More messages waiting per member than this puts an actor pool under pressure.")
    int pool_highWater() default 1;

    @AttributeDefinition(name = "Actor pool growth delay", min = "0", max = "3600000",
            description = "Milliseconds the pressure must last before a member is added.")
    int pool_growMillis() default 1000;

    @AttributeDefinition(name = "Actor pool idle time", min = "1", max = "86400",
            description = "Seconds an actor pool must be idle before a member retires.")
    int pool_idleSeconds() default 30;

    @AttributeDefinition(name = "Actor pool cooldown", min = "0", max = "3600000",
            description = "Least milliseconds between two size changes of one actor pool.")
    int pool_cooldownMillis() default 2000;
}
