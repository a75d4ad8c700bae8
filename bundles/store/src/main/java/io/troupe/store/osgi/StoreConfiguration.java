package io.troupe.store.osgi;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * The state store's configuration, PID {@value #PID} ({@code etc/io.troupe.store.cfg} in the
 * distribution): every key with its type, default, bounds and description. bnd writes it into
 * {@code OSGI-INF/metatype/io.troupe.store.osgi.StoreConfiguration.xml}; {@link StoreSettings} checks a
 * configuration against that document and reads the accepted values through this interface.
 *
 * <p><b>Threading:</b> the instances ({@link io.troupe.config.TypedConfiguration} views) are immutable.
 */
@ObjectClassDefinition(name = "Troupe state store",
        description = "The embedded store of durable actors' state (an H2 MVStore file). A bad value is logged "
                + "with its key, file and reason, and the key keeps its previous value.")
public @interface StoreConfiguration {

    /** The ConfigAdmin PID. */
    String PID = "io.troupe.store";

    @AttributeDefinition(name = "Store file", min = "1", max = "4096",
            description = "The MVStore file; relative to the installation (troupe.home). Created at first start, "
                    + "with its folder. Read at start: a change applies at the next start.")
    String file() default "data/state.mv.db";

    @AttributeDefinition(name = "Sync writes",
            description = "true: a write is acknowledged once it is synced to the disk (survives a crash of the "
                    + "process and of the machine). false: once committed to the file without a sync (survives a "
                    + "crash of the process, not of the machine or a power loss). Live.")
    boolean syncWrites() default true;
}
