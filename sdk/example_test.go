package sdk_test

import (
	"context"
	"fmt"

	"ctx/sdk"
)

// Page through a session's transcript with the MCP page contract, three
// events at a time, then read it again as one complete stream. (Compiled,
// not run: it reads the fixture store, which a plain clone lacks;
// TestShowSessionPaths checks the same paths.)
func Example() {
	ctx := context.Background()
	c, err := sdk.Open(storeHome) // sdk.Open("") uses the CLI's store
	if err != nil {
		fmt.Println(err)
		return
	}
	id := "ses_24591081cdbcf15b591b404ea5207080" // the Claude Code fixture's main session
	opts := sdk.ShowSessionOptions{Mode: "transcript", Limit: 3}
	for {
		page, err := c.ShowSession(ctx, id, opts)
		if err != nil {
			fmt.Println(sdk.CodeOf(err), err)
			return
		}
		fmt.Printf("page of %d events, has_more=%v\n", page.Pagination.Returned, page.Pagination.HasMore)
		if !page.Pagination.HasMore {
			break
		}
		opts.Cursor = page.Pagination.NextCursor
	}
	all, err := c.ShowSession(ctx, id, sdk.ShowSessionOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("complete stream: %d events, complete=%v\n", len(all.Events), all.Completion.Complete)
}
