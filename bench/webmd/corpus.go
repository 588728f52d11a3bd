// Package webmdbench measures mm's HTML to Markdown converter
// (internal/webmd) against github.com/JohannesKaufmann/html-to-markdown/v2
// and against parsing alone, on a corpus of real pages. It is a module of
// its own so that html-to-markdown never enters mm's go.mod or binary.
package webmdbench

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"

	"mm/internal/webmd"
)

// ErrNoCorpus: MM_HTML_CORPUS is not set. The corpus of real pages is not
// part of the repository (it is large and its pages are others'), so a
// clone has none to default to.
var ErrNoCorpus = errors.New("no corpus: set MM_HTML_CORPUS to a directory of HTML pages with a manifest.tsv (file, source, path, size, declared charset, base URL, notes)")

// CorpusDir is $MM_HTML_CORPUS; "" when unset.
func CorpusDir() string {
	return os.Getenv("MM_HTML_CORPUS")
}

// Page is one corpus page.
type Page struct {
	Name    string
	Raw     []byte // the bytes as served
	HTML    []byte // decoded to UTF-8 by webmd.Decode (the same input for every converter)
	Base    string // the page's real URL
	Charset string // what the manifest says the page declares
	Notes   string
}

// Entry is one line of the corpus manifest.
type Entry struct {
	Name, Base, Charset, Notes string
}

// Manifest reads dir/manifest.tsv (file, source, path, size, declared
// charset, base URL, notes).
func Manifest(dir string) ([]Entry, error) {
	f, err := os.Open(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var entries []Entry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	first := true
	for sc.Scan() {
		if first {
			first = false
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 7 {
			continue
		}
		entries = append(entries, Entry{Name: cols[0], Base: cols[5], Charset: cols[4], Notes: cols[6]})
	}
	return entries, sc.Err()
}

// Load reads one page and decodes it.
func (e Entry) Load(dir string) (Page, error) {
	raw, err := os.ReadFile(filepath.Join(dir, e.Name))
	if err != nil {
		return Page{}, err
	}
	text, _, err := webmd.Decode(raw, "")
	if err != nil {
		return Page{}, fmt.Errorf("%s: %v", e.Name, err)
	}
	return Page{Name: e.Name, Raw: raw, HTML: text, Base: e.Base, Charset: e.Charset, Notes: e.Notes}, nil
}

// Load reads the whole corpus.
func Load(dir string) ([]Page, error) {
	entries, err := Manifest(dir)
	if err != nil {
		return nil, err
	}
	pages := make([]Page, 0, len(entries))
	for _, e := range entries {
		p, err := e.Load(dir)
		if err != nil {
			return nil, err
		}
		pages = append(pages, p)
	}
	return pages, nil
}

// TotalBytes is the size of the pages as served.
func TotalBytes(pages []Page) int64 {
	var n int64
	for _, p := range pages {
		n += int64(len(p.Raw))
	}
	return n
}

// Ours converts with mm's converter, base URL set.
func Ours(p *Page) string {
	return webmd.Convert(p.HTML, webmd.Options{BaseURL: p.base()})
}

// OursFromRaw is what fetch_content does with the bytes it received:
// decode, then convert.
func OursFromRaw(p *Page) string {
	text, _, err := webmd.Decode(p.Raw, "")
	if err != nil {
		return ""
	}
	return webmd.Convert(text, webmd.Options{BaseURL: p.base()})
}

// Theirs converts with html-to-markdown v2, default options, base URL
// (its "domain") set.
func Theirs(p *Page) string {
	return theirs(p.HTML, p.Base)
}

// TheirsFromRaw gives html-to-markdown the bytes as served: it does no
// charset decoding of its own.
func TheirsFromRaw(p *Page) string {
	return theirs(p.Raw, p.Base)
}

func theirs(b []byte, base string) string {
	out, err := htmltomarkdown.ConvertReader(bytes.NewReader(b), converter.WithDomain(base))
	if err != nil {
		return ""
	}
	return string(out)
}

// ParseOnly parses the page with golang.org/x/net/html: the floor every
// converter built on it pays.
func ParseOnly(p *Page) *html.Node {
	doc, _ := html.Parse(bytes.NewReader(p.HTML))
	return doc
}

func (p *Page) base() *url.URL {
	u, err := url.Parse(p.Base)
	if err != nil {
		return nil
	}
	return u
}
