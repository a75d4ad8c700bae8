package io.troupe.host;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

import io.troupe.host.actor.ActorSystem;

/**
 * The framework properties the host reads once, at start (etc/config.properties in the distribution,
 * or the launcher): what must be known before the framework or the host starts, or what is built
 * once at start and cannot change under running code. Checked by the same typed model as the
 * ConfigAdmin configurations (a bad value is reported with the key and the reason, and the default
 * applies). Runtime-tunable settings are in {@link HostConfiguration}.
 *
 * <ul>
 * <li>{@code troupe.home}, {@code troupe.console}: set by the launcher before the framework starts.</li>
 * <li>{@code troupe.ioThreads}, {@code troupe.io.spinMicros}: the reactor's loops are created at start
 *     and carry the connections; a new count would mean new loops.</li>
 * <li>{@code troupe.throughput}: given to the actor system when it is built.</li>
 * <li>{@code troupe.deploy.*}, {@code troupe.swap.graceSeconds}: given to the deploy watcher and the
 *     plugin directory when they are built.</li>
 * <li>{@code troupe.log.*}: the logger runs before ConfigAdmin (see {@code io.troupe.host.log}).</li>
 * </ul>
 *
 * <p>No PID designates this definition: it documents and checks framework properties, which
 * ConfigAdmin never delivers.
 *
 * <p><b>Threading:</b> the instances are immutable views.
 */
@ObjectClassDefinition(name = "Troupe host: framework properties",
        description = "Read once when the host starts; a change needs a restart.")
public @interface HostFrameworkProperties {

    @AttributeDefinition(name = "Installation directory", required = false,
            description = "Set by the launcher; the logger writes log/troupe.log under it.")
    String troupe_home() default "";

    @AttributeDefinition(name = "Console", required = false, description = "Set by bin/troupe: tty or script.")
    String troupe_console() default "";

    @AttributeDefinition(name = "IO threads", min = "0", max = "1024",
            description = "Reactor IO loops; 0: one per core.")
    int troupe_ioThreads() default 0;

    @AttributeDefinition(name = "IO loop spin", min = "0", max = "1000000",
            description = "Microseconds an IO loop polls for answers after reading, before it selects; 0: never.")
    int troupe_io_spinMicros() default 30;

    @AttributeDefinition(name = "Throughput", min = "1", max = "1000000",
            description = "Messages an actor handles per turn before others get the worker.")
    int troupe_throughput() default ActorSystem.DEFAULT_THROUGHPUT;

    @AttributeDefinition(name = "Deploy folder", required = false,
            description = "The plugin folder the host watches; none when unset (the launcher sets deploy/).")
    String troupe_deploy_dir() default "";

    @AttributeDefinition(name = "Deploy poll", min = "1", max = "3600000",
            description = "Milliseconds between two looks at the deploy folder.")
    int troupe_deploy_pollMillis() default 500;

    @AttributeDefinition(name = "Plugin start level", min = "1", max = "1000",
            description = "The start level of plugins installed from the deploy folder.")
    int troupe_deploy_startLevel() default 80;

    @AttributeDefinition(name = "Swap grace", min = "1", max = "86400",
            description = "Seconds a swapped plugin's actors wait for its next revision.")
    int troupe_swap_graceSeconds() default 10;

    @AttributeDefinition(name = "State store required",
            description = "Whether a durable actor refuses to start while no StateStore service is registered"
                    + " (true in the distribution), rather than run on its in-memory state only.")
    boolean troupe_state_required() default false;
}
