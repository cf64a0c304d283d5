package index

import (
	"unsafe"

	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"
)

// Finished documents. The builder hands bleve a group's document as its
// fields, already analyzed, instead of a struct for the mapping to walk:
// the text field's terms are those groupTerms computed, counted into
// bleve's term frequencies without splitting them into tokens again, and
// each multi-valued keyword field (the group's types, roles, files, tools,
// days and events) is one field holding every value's term instead of one
// field per value, which bleve's segment builder merges into one anyway.
// The segment written is byte for byte the one the mapping gives
// (TestFinishedDocumentsAsMapped), so shards, their format and the answers
// do not change.

// Field options, as newMapping's field mappings give them.
const (
	scoredKeyword = index.IndexField                      // session, root, files
	filterKeyword = index.IndexField | index.SkipFreqNorm // the other keywords
	tsOptions     = filterKeyword | index.DocValues
	textOptions   = index.IndexField
	hitOptions    = index.StoreField
)

// shardMapping is the mapping of a shard (newMapping) that maps a shardDoc
// to its finished fields (see above); any other value goes through the
// mapping's own walk. Its JSON, stored in every shard, is newMapping's.
type shardMapping struct{ *mapping.IndexMappingImpl }

func (m shardMapping) MapDocument(doc *document.Document, data interface{}) error {
	d, ok := data.(*shardDoc)
	if !ok {
		return m.IndexMappingImpl.MapDocument(doc, data)
	}
	d.addFields(doc)
	doc.SetIndexed()
	return nil
}

// addFields adds d's fields to doc, as newMapping maps them: a keyword
// field for each single value, empty ones included, and one for each
// non-empty list.
func (d *shardDoc) addFields(doc *document.Document) {
	one := func(name string, opts index.FieldIndexingOptions, v string) {
		f := &termsField{name: name, opts: opts}
		f.single[0] = v
		f.values = f.single[:]
		doc.AddField(f)
	}
	list := func(name string, opts index.FieldIndexingOptions, vs []string) {
		if len(vs) > 0 {
			doc.AddField(&termsField{name: name, opts: opts, values: vs})
		}
	}
	one(fieldSession, scoredKeyword, d.Session)
	one(fieldRoot, scoredKeyword, d.Root)
	doc.AddField(document.NewBooleanFieldWithIndexingOptions(fieldSubagent, nil, d.Subagent, index.IndexField))
	list(fieldType, filterKeyword, d.Type)
	list(fieldRole, filterKeyword, d.Role)
	one(fieldProvider, filterKeyword, d.Provider)
	one(fieldWorkspace, filterKeyword, d.Workspace)
	one(fieldSourceRoot, filterKeyword, d.SourceRoot)
	one(fieldSourceGroup, filterKeyword, d.SourceGroup)
	list(fieldFiles, scoredKeyword, d.Files)
	list(fieldTool, filterKeyword, d.Tool)
	list(fieldDay, filterKeyword, d.Day)
	one(fieldTS, tsOptions, d.TS)
	list(fieldEvents, filterKeyword, d.Events)
	doc.AddField(document.NewTextFieldCustom(fieldHit, nil, []byte(d.Hit), hitOptions, nil))
	doc.AddField(&termsField{name: fieldText, opts: textOptions, text: d.Text})
}

// termsField is an indexed field whose terms are known: either values,
// each one term as bleve's keyword analyzer gives it, or text, terms
// separated by termSep as TermsAnalyzer splits them. Analyze counts them
// into bleve's term frequencies: the number of times each term occurs
// (none for a field that skips frequencies), and the field's length is the
// number of terms, repeats included. Neither kind is stored.
type termsField struct {
	name   string
	opts   index.FieldIndexingOptions
	values []string
	single [1]string // values of a single-valued field

	text string // the terms of a text

	length int
	freqs  index.TokenFrequencies
}

func (f *termsField) Name() string                        { return f.name }
func (f *termsField) ArrayPositions() []uint64            { return nil }
func (f *termsField) Options() index.FieldIndexingOptions { return f.opts }
func (f *termsField) EncodedFieldType() byte              { return 't' }
func (f *termsField) AnalyzedLength() int                 { return f.length }

func (f *termsField) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freqs }

// Value is the field's text; a keyword list has no single value, and
// nothing reads the value of a field that is not stored.
func (f *termsField) Value() []byte {
	if f.values != nil {
		return []byte(f.values[0])
	}
	return []byte(f.text)
}

func (f *termsField) NumPlainTextBytes() uint64 {
	n := len(f.text)
	for _, v := range f.values {
		n += len(v)
	}
	return uint64(n)
}

// Size is an estimate of the field's memory, as bleve's fields give it.
func (f *termsField) Size() int {
	n := 128 + len(f.name) + len(f.text) + 16*len(f.values)
	for _, v := range f.values {
		n += len(v)
	}
	return n + 80*len(f.freqs)
}

func (f *termsField) Analyze() {
	if f.values != nil {
		f.analyzeValues()
		return
	}
	f.analyzeText()
}

func (f *termsField) analyzeValues() {
	f.length = len(f.values)
	f.freqs = make(index.TokenFrequencies, len(f.values))
	slab := make([]index.TokenFreq, len(f.values))
	n := 0
	for _, v := range f.values {
		n += len(v)
	}
	buf := make([]byte, 0, n)
	for i, v := range f.values {
		tf := f.freqs[v]
		if tf == nil {
			at := len(buf)
			buf = append(buf, v...)
			tf = &slab[i]
			tf.Term = buf[at:len(buf):len(buf)]
			f.freqs[v] = tf
		}
		f.count(tf)
	}
}

// freqBlock is how many term frequencies analyzeText allocates at once.
const freqBlock = 256

func (f *termsField) analyzeText() {
	s, b := f.text, stringBytes(f.text)
	f.freqs = make(index.TokenFrequencies, len(s)/20) // a group's text holds a distinct term per 22 bytes
	var slab []index.TokenFreq
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != termSep {
			continue
		}
		if i > start {
			f.length++
			tf := f.freqs[s[start:i]]
			if tf == nil {
				if len(slab) == 0 {
					slab = make([]index.TokenFreq, freqBlock)
				}
				tf, slab = &slab[0], slab[1:]
				tf.Term = b[start:i:i]
				f.freqs[s[start:i]] = tf
			}
			f.count(tf)
		}
		start = i + 1
	}
}

// stringBytes is s's bytes, not copied: the term of a frequency points into
// the text, and bleve never writes a term's bytes.
func stringBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

func (f *termsField) count(tf *index.TokenFreq) {
	if !f.opts.SkipFreqNorm() {
		tf.SetFrequency(tf.Frequency() + 1)
	}
}
