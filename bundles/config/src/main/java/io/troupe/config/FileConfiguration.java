package io.troupe.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Dictionary;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.cm.ConfigurationEvent;
import org.osgi.service.cm.ConfigurationListener;

/**
 * The configuration a component starts with when its file, {@code etc/<pid>.cfg}, exists but FileInstall may
 * not have handed it to ConfigAdmin yet (FileInstall reads etc/ on its own thread while the framework
 * starts): waits for it, a bounded time, so that the first start applies the file and not the defaults.
 * (For the HTTP endpoint, that Jetty never listens on the default port first and then moves; for the state
 * store, that it never opens the default file first.)
 *
 * <p><b>Threading:</b> {@link #await} blocks the calling thread (a component's activation) for at most its
 * timeout; the listener it registers meanwhile runs on ConfigAdmin's thread and only counts down a latch.
 */
public final class FileConfiguration {

    private final BundleContext context;
    private final ConfigurationAdmin configAdmin;
    private final String pid;

    public FileConfiguration(BundleContext context, ConfigurationAdmin configAdmin, String pid) {
        this.context = context;
        this.configAdmin = configAdmin;
        this.pid = pid;
    }

    /** Whether {@code home}'s {@code etc/<pid>.cfg} exists. */
    public boolean fileExists(Path home) {
        return home != null && Files.isRegularFile(home.resolve("etc").resolve(pid + ".cfg"));
    }

    /**
     * The properties of the PID once ConfigAdmin has them from the file, waiting at most {@code seconds};
     * null when they did not come in time.
     */
    public Map<String, Object> await(long seconds) throws InterruptedException {
        CountDownLatch changed = new CountDownLatch(1);
        ConfigurationListener listener = (ConfigurationEvent event) -> {
            if (pid.equals(event.getPid())) {
                changed.countDown();
            }
        };
        ServiceRegistration<ConfigurationListener> listening =
                context.registerService(ConfigurationListener.class, listener, null);
        try {
            Map<String, Object> loaded = loaded();
            if (loaded == null && changed.await(seconds, TimeUnit.SECONDS)) {
                loaded = loaded();
            }
            return loaded;
        } finally {
            listening.unregister();
        }
    }

    /** The PID's properties when they came from a file, else null. */
    private Map<String, Object> loaded() {
        Configuration[] found;
        try {
            found = configAdmin.listConfigurations("(" + Constants.SERVICE_PID + "=" + pid + ")");
        } catch (IOException | InvalidSyntaxException e) {
            return null;
        }
        if (found == null || found.length == 0 || found[0].getProperties() == null) {
            return null;
        }
        Dictionary<String, Object> dictionary = found[0].getProperties();
        if (dictionary.get(ConfigurationSource.FILE_PROPERTY) == null) {
            return null;
        }
        Map<String, Object> map = new HashMap<>();
        for (Enumeration<String> keys = dictionary.keys(); keys.hasMoreElements();) {
            String key = keys.nextElement();
            map.put(key, dictionary.get(key));
        }
        return map;
    }
}
