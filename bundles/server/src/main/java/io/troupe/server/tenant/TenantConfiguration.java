package io.troupe.server.tenant;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.AttributeType;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * One tenant's configuration, a factory configuration of {@value TenantConfig#FACTORY_PID}
 * ({@code etc/io.troupe.tenant-<id>.cfg} in the distribution): every key with its type, default,
 * bounds and description. {@link TenantConfig} checks each configuration against the metatype
 * document bnd writes from this type and refuses the whole configuration when a value is bad (the
 * tenant keeps its previous configuration).
 *
 * <p>Keys of later features (per-tenant limits, ...) are added here, with their bounds.
 *
 * <p><b>Threading:</b> the instances are immutable views.
 */
@ObjectClassDefinition(name = "Troupe tenant", factoryPid = TenantConfig.FACTORY_PID,
        description = "A tenant of the message server: its token and limits. One file per tenant, "
                + "io.troupe.tenant-<id>.cfg; adding, changing or deleting one applies while Troupe runs.")
public @interface TenantConfiguration {

    @AttributeDefinition(name = "Token", type = AttributeType.PASSWORD, min = "1",
            description = "The secret clients send in HELLO; surrounding blanks are ignored. Never logged.")
    String token();

    @AttributeDefinition(name = "Connections", min = "0", max = "2147483647",
            description = "Sessions the tenant may have open at once.")
    int maxConnections() default TenantConfig.DEFAULT_MAX_CONNECTIONS;

    @AttributeDefinition(name = "Requests per second", min = "0", max = "" + RateLimiter.MAX_RATE,
            description = "REQUEST and SEND frames per second over all the tenant's connections; 0: unlimited.")
    int maxRequestsPerSecond() default 0;

    @AttributeDefinition(name = "Tenant id", required = false, min = "1", max = "64",
            description = "The tenant id, for configurations made without a file (a file's name gives it): "
                    + "1 to 64 of A-Z a-z 0-9 . _ -")
    String tenant() default "";
}
