package msgshots

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"time"

	"github.com/chromedp/chromedp"
)

// Browser is a headless Chromium that takes pictures of pages.
type Browser struct {
	ctx    context.Context
	cancel func()
}

// ErrNoChromium says Chromium is not installed.
var ErrNoChromium = errors.New("msgshots: Chromium is not installed: install it (Debian: apt-get install chromium fonts-noto-core fonts-noto-color-emoji) or set CONDUCTOR_CHROMIUM to a Chrome binary")

// ChromiumPath finds Chromium as web's browser tests do: CONDUCTOR_CHROMIUM,
// else the usual names on the PATH.
func ChromiumPath() (string, error) {
	if p := os.Getenv("CONDUCTOR_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// NewBrowser starts a headless Chromium with a fresh profile in dir; Close
// stops it.
func NewBrowser(dir string) (*Browser, error) {
	path, err := ChromiumPath()
	if err != nil {
		return nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(dir),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	if err := chromedp.Do(ctx); err != nil {
		cancelCtx()
		cancelAlloc()
		return nil, fmt.Errorf("starting Chromium: %w", err)
	}
	return &Browser{ctx: ctx, cancel: func() { cancelCtx(); cancelAlloc() }}, nil
}

// Close stops the browser.
func (b *Browser) Close() { b.cancel() }

// Shoot takes a picture of a page width CSS px wide, as tall as the page,
// at scale device pixels a CSS pixel.
func (b *Browser) Shoot(page string, width int, scale float64) ([]byte, error) {
	tab, done, err := b.open(page, width, scale)
	if err != nil {
		return nil, err
	}
	defer done()
	return chromedp.Run(tab, chromedp.CaptureScreenshot())
}

// open loads a page in a new tab width CSS px wide and as tall as the page,
// its fonts and pictures ready. The page is served from a server on the
// loopback interface until done is called; its content security policy
// lets it load nothing else.
func (b *Browser) open(page string, width int, scale float64) (tab context.Context, done func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	}), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	tab, closeTab := chromedp.NewContext(ctx)
	done = func() { closeTab(); cancel(); srv.Close() }
	if err := chromedp.Do(tab, chromedp.EmulateViewport(int64(width), 600, chromedp.EmulateScale(scale)),
		chromedp.Navigate("http://"+ln.Addr().String()+"/")); err != nil {
		done()
		return nil, nil, err
	}
	height, err := chromedp.Run(tab, chromedp.Evaluate[int](`(async () => {
		await document.fonts.ready;
		await Promise.all([...document.images].map(i => i.decode().catch(() => null)));
		return Math.ceil(document.documentElement.getBoundingClientRect().height);
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		done()
		return nil, nil, fmt.Errorf("measuring the page: %w", err)
	}
	if err := chromedp.Do(tab, chromedp.EmulateViewport(int64(width), int64(height), chromedp.EmulateScale(scale))); err != nil {
		done()
		return nil, nil, err
	}
	return tab, done, nil
}
