package io.troupe.distribution;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;

import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's Chromium ({@value #CHROMIUM}), headless, driven through Debian's chromedriver ({@value #CHROMEDRIVER})
 * with Selenium, on a fresh profile: nothing is downloaded, the browser makes no request of its own (no sync,
 * no component updates, no QUIC), and its console log is kept for the test to read.
 *
 * <p><b>Threading:</b> one test thread; every wait is bounded.
 */
final class ConsoleBrowser implements AutoCloseable {

    static final String CHROMIUM = "/usr/bin/chromium";
    static final String CHROMEDRIVER = "/usr/bin/chromedriver";

    private final ChromeDriverService service;
    private final ChromeDriver driver;
    private final Path screenshots;

    /**
     * @param profile     a fresh folder for the browser's profile
     * @param screenshots where {@link #screenshot} writes
     */
    ConsoleBrowser(Path profile, Path screenshots) throws IOException {
        for (String program : new String[] {CHROMIUM, CHROMEDRIVER}) {
            if (!Files.isExecutable(Path.of(program))) {
                throw new AssertionError(program + " is missing: install Debian's chromium and chromium-driver "
                        + "(apt-get install chromium chromium-driver), as .ci/run does");
            }
        }
        this.screenshots = Files.createDirectories(screenshots);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1000", "--user-data-dir=" + profile);
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort()
                .build();
        driver = new ChromeDriver(service, options);
    }

    WebDriver driver() {
        return driver;
    }

    void open(String url) {
        driver.get(url);
    }

    /** Waits up to {@code timeout} for {@code condition}; fails with {@code what} and the page's text. */
    <T> T await(String what, Duration timeout, ExpectedCondition<T> condition) {
        try {
            return new WebDriverWait(driver, timeout, Duration.ofMillis(50)).until(condition);
        } catch (TimeoutException e) {
            StringBuilder console = new StringBuilder();
            for (LogEntry entry : consoleLog()) {
                console.append(entry).append('\n');
            }
            throw new AssertionError("not within " + timeout + ": " + what + "\n--- page text ---\n"
                    + driver.findElement(By.tagName("body")).getText() + "\n--- browser console ---\n" + console, e);
        }
    }

    /** The element {@code css}, once it is there (within {@code timeout}). */
    WebElement element(String css, Duration timeout) {
        return await(css + " is on the page", timeout, d -> {
            List<WebElement> found = d.findElements(By.cssSelector(css));
            return found.isEmpty() ? null : found.get(0);
        });
    }

    /** The browser's console messages since the last call. */
    List<LogEntry> consoleLog() {
        return driver.manage().logs().get(LogType.BROWSER).getAll();
    }

    /** Writes a PNG of the window to {@code <screenshots>/<name>.png}. */
    Path screenshot(String name) throws IOException {
        Path file = screenshots.resolve(name + ".png");
        Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
        return file;
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
        }
    }
}
