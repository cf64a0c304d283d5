package blame

import (
	"context"
	"strconv"
)

// maxPulled bounds the commits a post-merge hook links: a pull that brings
// more links its newest ones (ctx notes link handles the rest by hand).
const maxPulled = 20

// LinkPulled links the commits a merge or pull brought (ORIG_HEAD..HEAD,
// merges left out) that have no note, each matched by content against the
// noted commits of local branches it does not contain, as LinkFrom does
// with an empty range: a forge's squash merge of a pull request whose
// commits were made here gets their evidence when it is pulled. When no
// local branch holds a noted commit that HEAD lacks, it stops after three
// git processes. It returns the commits that gained a note.
func LinkPulled(ctx context.Context, repo *Repo, logf func(string, ...any)) ([]string, error) {
	orig, err := repo.Resolve(ctx, "ORIG_HEAD")
	if err != nil {
		return nil, nil // no merge recorded its starting point
	}
	noted, err := repo.notedCommits(ctx)
	if err != nil || len(noted) == 0 {
		return nil, err
	}
	// Noted work on local branches that HEAD does not contain: without it
	// nothing can be carried.
	pending, err := repo.revList(ctx, "--no-merges", "-n", strconv.Itoa(maxBranchScan), "--branches", "--not", "HEAD")
	if err != nil {
		return nil, err
	}
	if !anyNoted(pending, noted) {
		return nil, nil
	}
	pulled, err := repo.revList(ctx, "--no-merges", "-n", strconv.Itoa(maxPulled), "HEAD", "--not", orig)
	if err != nil {
		return nil, err
	}
	var linked []string
	for _, id := range pulled {
		if noted[id] {
			continue
		}
		res, err := linkFrom(ctx, repo, id, "", noted)
		if err != nil {
			logf("linking pulled commit %s: %v", short(id), err)
			continue
		}
		for _, s := range res.Skipped {
			logf("%s", s)
		}
		if res.Note != nil {
			linked = append(linked, id)
		}
	}
	return linked, nil
}

func anyNoted(ids []string, noted map[string]bool) bool {
	for _, id := range ids {
		if noted[id] {
			return true
		}
	}
	return false
}
