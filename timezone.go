package leaderboard

import (
	"archive/zip"
	"bytes"
	_ "embed" // the zone data below
	"fmt"
	"io"
	"sync"
	"time"
)

// TimeZoneData is the version of the IANA time zone database the service
// embeds: the names and rules of every time zone it knows.
const TimeZoneData = "tzdata 2025c"

// zoneinfo is the IANA time zone database as Go ships it
// (lib/time/zoneinfo.zip of Go 1.26, TimeZoneData). Zones are loaded from it
// alone, never from the host's /usr/share/zoneinfo: every host, the image
// without one included, knows the same names with the same rules. `make
// tzdata` refreshes it from the Go toolchain in use.
//
//go:embed tzdata/zoneinfo.zip
var zoneinfo []byte

// zoneFiles indexes zoneinfo by zone name.
var zoneFiles = sync.OnceValue(func() map[string]*zip.File {
	r, err := zip.NewReader(bytes.NewReader(zoneinfo), int64(len(zoneinfo)))
	if err != nil {
		panic("the embedded zone data is not a zip: " + err.Error())
	}
	files := make(map[string]*zip.File, len(r.File))
	for _, f := range r.File {
		files[f.Name] = f
	}
	return files
})

// notZones are names the zone data holds that name no place's time:
// Factory is the zone of a machine whose zone was never set.
var notZones = map[string]bool{"Factory": true}

// zones holds the time zones loaded, by name: a board is read for every
// merged write of claims. It is bounded by the names of the zone data.
var zones sync.Map

// LoadTimeZone returns the time zone of an IANA name from the zone data the
// service embeds (TimeZoneData): an Area/Location name such as Europe/Berlin,
// or one of the database's other names, such as UTC or US/Pacific, which
// are links kept for compatibility. EBADINPUT for any other name: "Local",
// "localtime", "Factory", "posixrules", "posix/…" and "right/…" (which a
// host's zoneinfo folder may hold), a name not spelled exactly as the
// database does ("./UTC", "Etc/./UTC", "Europe//Berlin", "europe/berlin"),
// or one the embedded data does not know yet.
func LoadTimeZone(name string) (*time.Location, error) {
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	f := zoneFiles()[name]
	if f == nil || notZones[name] {
		return nil, Errorf(EBADINPUT, "timeZone %q is not an IANA time zone name such as Europe/Berlin or UTC (%s)",
			clip(name), TimeZoneData)
	}
	loc, err := loadZoneFile(f)
	if err != nil {
		return nil, fmt.Errorf("time zone %s: %w", name, err)
	}
	zones.Store(name, loc)
	return loc, nil
}

// loadZoneFile reads one zone of zoneinfo.
func loadZoneFile(f *zip.File) (*time.Location, error) {
	r, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return time.LoadLocationFromTZData(f.Name, data)
}
