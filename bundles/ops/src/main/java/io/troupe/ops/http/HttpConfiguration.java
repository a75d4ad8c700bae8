package io.troupe.ops.http;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * The HTTP endpoint's configuration, PID {@value #PID} ({@code etc/io.troupe.http.cfg} in the distribution):
 * every key with its type, default, bounds and description. bnd writes it into
 * {@code OSGI-INF/metatype/io.troupe.ops.http.HttpConfiguration.xml}; {@link HttpSettings} checks a
 * configuration against that document and reads the accepted values through this interface.
 *
 * <p><b>Threading:</b> the instances ({@link io.troupe.config.TypedConfiguration} views) are immutable.
 */
@ObjectClassDefinition(name = "Troupe HTTP endpoint",
        description = "The operators' HTTP endpoint: /health/live and /health/ready (open), /metrics and /console "
                + "(admin token). Applied while Troupe runs; a bad value is logged with its key, file and reason, "
                + "and the key keeps its previous value.")
public @interface HttpConfiguration {

    /** The ConfigAdmin PID. */
    String PID = "io.troupe.http";

    @AttributeDefinition(name = "Enabled",
            description = "false: nothing listens (the health checks, metrics and console are off). Live.")
    boolean enabled() default true;

    @AttributeDefinition(name = "Listen address", min = "1", max = "255",
            description = "Host name or address to listen on; loopback by default. Any other address needs "
                    + "allowPlaintext = true. Re-binds.")
    String host() default "127.0.0.1";

    @AttributeDefinition(name = "Port", min = "1", max = "65535", description = "TCP port. Re-binds.")
    int port() default 7879;

    @AttributeDefinition(name = "Admin token file", min = "1", max = "4096",
            description = "The file whose first line is the admin token (relative: to the installation). Created "
                    + "with a random token, readable by its owner only, when absent; re-read when it changes.")
    String tokenFile() default "etc/admin.token";

    @AttributeDefinition(name = "Allow plaintext on a non-loopback address", required = false,
            description = "The endpoint speaks plain HTTP: without this, a host that is not a loopback address is "
                    + "refused and nothing listens; true serves it anyway (the admin token readable on the "
                    + "network), with a WARN.")
    boolean allowPlaintext() default false;
}
